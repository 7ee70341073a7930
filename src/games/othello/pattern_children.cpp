// The children's evaluation from their parent's indices (pattern_children.hpp): the square terms
// and the parent's reading.
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
  instances_ = static_cast<int>(t.slots.size());
  // Read from o's side: the children's mover is o.
  for (std::size_t i = 0; i < t.slots.size(); ++i) index_[i] = slot_index(t, t.slots[i], io, ip);
}

}  // namespace zermelo::othello::patterns
