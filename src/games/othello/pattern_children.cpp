// The children's and grandchildren's evaluations from a position's indices (pattern_children.hpp):
// the square terms and the position's reading.
#include "zermelo/games/othello/pattern_children.hpp"

#include <stdexcept>

namespace zermelo::othello::patterns {
namespace {

SquareTerms make_square_terms() {
  SquareTerms st;
  const Tables& t = tables();
  for (std::size_t i = 0; i < t.slots.size(); ++i) {
    const Slot& s = t.slots[i];
    for (int sq = 0; sq < 64; ++sq) {
      const Bits image = transform<8>(bit(sq), static_cast<int>(s.symmetry));
      if (!(image & s.squares)) continue;
      std::uint16_t power = 1;
      for (int d = popcount(s.squares & (image - 1)); d > 0; --d) power *= 3;
      auto& n = st.count[static_cast<std::size_t>(sq)];
      if (n == SquareTerms::kMaxTerms) throw std::logic_error("patterns: too many square terms");
      st.terms[static_cast<std::size_t>(sq)][n++] = {static_cast<std::uint16_t>(i), power};
    }
  }
  return st;
}

}  // namespace

const SquareTerms& square_terms() {
  static const SquareTerms st = make_square_terms();
  return st;
}

ChildEvaluator::ChildEvaluator(const PatternWeights& w, Bits p, Bits o)
    : phase_(w.phase(popcount(~(p | o)) - 1)) {
  const Tables& t = tables();
  const std::array<Bits, 8> ip = images(p), io = images(o);
  // Read from o's side: the children's mover is o.
  for (std::size_t i = 0; i < t.slots.size(); ++i) {
    index_[i] = slot_index(t, t.slots[i], io, ip);
    base_[i] = phase_[index_[i]];
    base_sum_ += base_[i];
  }
  work_ = index_;
}

GrandchildEvaluator::GrandchildEvaluator(const PatternWeights& w, Bits p, Bits o)
    : phase_(w.phase(popcount(~(p | o)) - 2)) {
  const Tables& t = tables();
  const std::array<Bits, 8> ip = images(p), io = images(o);
  for (std::size_t i = 0; i < t.slots.size(); ++i) {
    index_[i] = slot_index(t, t.slots[i], ip, io);
    base_[i] = phase_[index_[i]];
    base_sum_ += base_[i];
  }
  child_ = work_ = index_;
  child_weight_ = base_;
}

}  // namespace zermelo::othello::patterns
