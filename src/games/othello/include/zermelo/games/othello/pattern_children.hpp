// The pattern evaluation of a position's children, each from the parent's instance indices
// updated by the squares its move changes, instead of 46 indices read afresh.
//
// Why: the endgame solver's ordering searches spend most of their time evaluating the children
// of their last interior ply (the profile gave the evaluation 22 % of the solve). Children differ
// from their parent on the played square and the flipped discs only, a few digits of a few
// instances, so the parent reads its indices once and each child adds a handful of digit
// weights (the incremental evaluation Edax and Egaroucid describe). The values are exactly those
// of PatternWeights::evaluate.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "zermelo/games/othello/patterns.hpp"

namespace zermelo::othello::patterns {

// For each square, the instances that read it and the weight of its digit there (3^position).
struct SquareTerms {
  static constexpr int kMaxTerms = 16;
  struct Term {
    std::uint16_t slot;   // the instance, as an index into tables().slots
    std::uint16_t power;  // 3^(the square's digit position in that instance), at most 3^9
  };
  std::array<std::array<Term, kMaxTerms>, 64> terms{};
  std::array<std::uint8_t, 64> count{};
};
const SquareTerms& square_terms();

// The evaluations of the children of (p to move, o), read from the parent.
class ChildEvaluator {
 public:
  ChildEvaluator(const PatternWeights& w, Bits p, Bits o);

  // The child after p plays `sq` flipping `flipped`: (child_p to move, child_o), with each side's
  // moves given. The same value as w.evaluate(child_p, child_o, child_p_moves, child_o_moves).
  int evaluate(int sq, Bits flipped, Bits child_p, Bits child_o, Bits child_p_moves,
               Bits child_o_moves) const {
    std::array<std::uint32_t, kMaxInstances> index = index_;
    add_digits(index, sq, 2);  // digit 0 (empty) to 2 (p's disc)
    for (Bits f = flipped; f; f &= f - 1) add_digits(index, std::countr_zero(f), 1);  // 1 to 2
    int sum = 0;
    for (int i = 0; i < instances_; ++i) sum += phase_[index[static_cast<std::size_t>(i)]];
    return PatternWeights::total(phase_, sum, child_p, child_o, child_p_moves, child_o_moves);
  }

 private:
  // Adds `digit` times the square's digit weight to each instance reading it.
  void add_digits(std::array<std::uint32_t, kMaxInstances>& index, int sq,
                  std::uint32_t digit) const {
    const auto s = static_cast<std::size_t>(sq);
    for (int k = 0; k < terms_.count[s]; ++k) {
      const SquareTerms::Term& t = terms_.terms[s][static_cast<std::size_t>(k)];
      index[t.slot] += digit * t.power;
    }
  }

  const SquareTerms& terms_ = square_terms();
  const std::int16_t* phase_;  // the children's weights (one empty fewer than the parent)
  int instances_;
  // Each instance's index as the children read it: digit 1 is o's disc, 2 is p's.
  std::array<std::uint32_t, kMaxInstances> index_{};
};

}  // namespace zermelo::othello::patterns
