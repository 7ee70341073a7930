// The pattern evaluation of a position's children (or grandchildren), each from the position's
// instance indices updated by the squares the moves change, instead of 46 indices read afresh.
//
// Why: the endgame solver's ordering searches spend most of their time evaluating the children
// of their last interior ply (the profile gave the evaluation 22 % of the solve). Children differ
// from their parent on the played square and the flipped discs only, a few digits of a few
// instances, so the parent reads its indices once and each child adds a handful of digit
// weights (the incremental evaluation Edax and Egaroucid describe). Reading the indices is itself
// the larger cost when a node evaluates few children before a cut-off, so a node two plies above
// the leaves reads them once for all its grandchildren. The values are exactly those of
// PatternWeights::evaluate.
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

  // Adds `digit` times the square's digit weight to each instance index reading it, and marks
  // those instances in `touched` (a bit an instance).
  void add(std::array<std::uint32_t, kMaxInstances>& index, int sq, std::uint32_t digit,
           std::uint64_t& touched) const {
    static_assert(kMaxInstances <= 64, "the touched instances are kept as bits of one word");
    const auto s = static_cast<std::size_t>(sq);
    for (int k = 0; k < count[s]; ++k) {
      const Term& t = terms[s][static_cast<std::size_t>(k)];
      index[t.slot] += digit * t.power;
      touched |= std::uint64_t{1} << t.slot;
    }
  }
};
const SquareTerms& square_terms();

// The evaluations of the children of (p to move, o), read from the parent. A child's sum is the
// parent's (read with the children's weights) corrected on the instances its changed squares
// touch, a third of them or fewer, so a child costs a few lookups instead of one an instance.
class ChildEvaluator {
 public:
  ChildEvaluator(const PatternWeights& w, Bits p, Bits o);

  // The child after p plays `sq` flipping `flipped`: (child_p to move, child_o), with each side's
  // moves given. The same value as w.evaluate(child_p, child_o, child_p_moves, child_o_moves).
  int evaluate(int sq, Bits flipped, Bits child_p, Bits child_o, Bits child_p_moves,
               Bits child_o_moves) {
    std::uint64_t touched = 0;
    terms_.add(work_, sq, 2, touched);  // digit 0 (empty) to 2 (p's disc)
    for (Bits f = flipped; f; f &= f - 1)
      terms_.add(work_, std::countr_zero(f), 1, touched);  // 1 to 2
    int sum = base_sum_;
    for (; touched; touched &= touched - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(touched));
      sum += phase_[work_[i]] - base_[i];
      work_[i] = index_[i];  // ready for the next child
    }
    return PatternWeights::total(phase_, sum, child_p, child_o, child_p_moves, child_o_moves);
  }

 private:
  const SquareTerms& terms_ = square_terms();
  const std::int16_t* phase_;  // the children's weights (one empty fewer than the parent)
  // Each instance's index as the children read it: digit 1 is o's disc, 2 is p's.
  std::array<std::uint32_t, kMaxInstances> index_{};
  std::array<std::uint32_t, kMaxInstances> work_{};  // index_ while no child is being read
  std::array<int, kMaxInstances> base_{};            // phase_[index_[i]]
  int base_sum_ = 0;                                 // their sum over the instances
};

// The evaluations of the grandchildren of (p to move, o): p's move, then o's, and p to move
// again. Usage: enter(p's move), evaluate each of o's replies, leave(); then the next move.
class GrandchildEvaluator {
 public:
  GrandchildEvaluator(const PatternWeights& w, Bits p, Bits o);

  // p plays `sq` flipping `flipped`.
  void enter(int sq, Bits flipped) {
    child_touched_ = 0;
    terms_.add(child_, sq, 1, child_touched_);  // digit 0 (empty) to 1 (p's disc)
    for (Bits f = flipped; f; f &= f - 1)
      terms_.add(child_, std::countr_zero(f), kMinusOne, child_touched_);  // 2 to 1
    child_sum_ = base_sum_;
    for (std::uint64_t t = child_touched_; t; t &= t - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(t));
      child_weight_[i] = phase_[child_[i]];
      child_sum_ += child_weight_[i] - base_[i];
      work_[i] = child_[i];
    }
  }
  // Then o plays `sq` flipping `flipped`: the grandchild (gp to move, go), each side's moves
  // given. The same value as w.evaluate(gp, go, gp_moves, go_moves).
  int evaluate(int sq, Bits flipped, Bits gp, Bits go, Bits gp_moves, Bits go_moves) {
    std::uint64_t touched = 0;
    terms_.add(work_, sq, 2, touched);  // digit 0 to 2 (o's disc)
    for (Bits f = flipped; f; f &= f - 1) terms_.add(work_, std::countr_zero(f), 1, touched);
    int sum = child_sum_;
    for (; touched; touched &= touched - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(touched));
      sum += phase_[work_[i]] - child_weight_[i];
      work_[i] = child_[i];
    }
    return PatternWeights::total(phase_, sum, gp, go, gp_moves, go_moves);
  }
  // Back to the position, ready for p's next move.
  void leave() {
    for (; child_touched_; child_touched_ &= child_touched_ - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(child_touched_));
      child_[i] = work_[i] = index_[i];
      child_weight_[i] = base_[i];
    }
  }

 private:
  static constexpr std::uint32_t kMinusOne = ~std::uint32_t{0};  // the indices wrap back exactly
  const SquareTerms& terms_ = square_terms();
  const std::int16_t* phase_;  // the grandchildren's weights (two empties fewer)
  // Each instance's index read from p's side (digit 1 p's disc, 2 o's), its weight, their sum;
  // the same after p's move (child_), and a copy to add o's reply to (work_).
  std::array<std::uint32_t, kMaxInstances> index_{}, child_{}, work_{};
  std::array<int, kMaxInstances> base_{}, child_weight_{};
  int base_sum_ = 0, child_sum_ = 0;
  std::uint64_t child_touched_ = 0;
};

}  // namespace zermelo::othello::patterns
