// The pattern set's derived tables: the weight layout, the instances and the tied indices
// (patterns.hpp).
#include "zermelo/games/othello/patterns.hpp"

namespace zermelo::othello::patterns {
namespace {

int power3(int k) {
  int r = 1;
  while (k--) r *= 3;
  return r;
}

// The index the pattern reads from (p, o), both already in the reading's frame.
std::uint32_t read(const Tables& t, Bits p, Bits o, Bits mask) {
  return t.ternary[gather(p, mask)] + 2u * t.ternary[gather(o, mask)];
}

Layout make_layout() {
  Layout l;
  int at = 0;
  for (int j = 0; j < kPatternCount; ++j) {
    l.offset[static_cast<std::size_t>(j)] = at;
    l.size[static_cast<std::size_t>(j)] =
        power3(popcount(kPatterns[static_cast<std::size_t>(j)].squares));
    at += l.size[static_cast<std::size_t>(j)];
  }
  l.mobility_p = at;
  l.mobility_o = at + kMobilityEntries;
  l.parity = at + 2 * kMobilityEntries;
  l.per_phase = l.parity + 2;
  return l;
}

Tables make_tables() {
  Tables t;
  for (std::uint32_t b = 0; b < t.ternary.size(); ++b) {
    std::uint32_t v = 0, w = 1;
    for (int i = 0; i < 10; ++i, w *= 3)
      if (b >> i & 1) v += w;
    t.ternary[b] = static_cast<std::uint16_t>(v);
  }
  // Instances: reading pattern j through symmetry k reads the squares whose image is in the
  // pattern; readings of the same squares are one instance (the first symmetry kept).
  std::array<std::vector<Bits>, kPatternCount> seen;
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < kPatternCount; ++j) {
      Bits read_squares = 0;
      for (int sq = 0; sq < 64; ++sq)
        if (transform<8>(bit(sq), k) & kPatterns[static_cast<std::size_t>(j)].squares)
          read_squares |= bit(sq);
      auto& s = seen[static_cast<std::size_t>(j)];
      if (std::find(s.begin(), s.end(), read_squares) != s.end()) continue;
      s.push_back(read_squares);
      t.instances.push_back({static_cast<std::uint8_t>(k), static_cast<std::uint8_t>(j)});
      t.slots.push_back({kPatterns[static_cast<std::size_t>(j)].squares,
                         static_cast<std::uint32_t>(layout().offset[static_cast<std::size_t>(j)]),
                         static_cast<std::uint32_t>(k)});
    }
  // Tied indices: a symmetry that maps a pattern's squares onto themselves reads a configuration
  // and its mirror image; both get the weight of the least of their indices.
  for (int j = 0; j < kPatternCount; ++j) {
    const Bits mask = kPatterns[static_cast<std::size_t>(j)].squares;
    const int n = popcount(mask), size = power3(n);
    auto& tied = t.tied[static_cast<std::size_t>(j)];
    tied.resize(static_cast<std::size_t>(size));
    for (int idx = 0; idx < size; ++idx) {
      Bits p = 0, o = 0;
      int rest = idx;
      for (Bits m = mask; m; m &= m - 1, rest /= 3) {
        if (rest % 3 == 1) p |= m & (0 - m);
        if (rest % 3 == 2) o |= m & (0 - m);
      }
      std::uint32_t least = static_cast<std::uint32_t>(idx);
      for (int g = 1; g < 8; ++g)
        if (transform<8>(mask, g) == mask)
          least = std::min(least, read(t, transform<8>(p, g), transform<8>(o, g), mask));
      tied[static_cast<std::size_t>(idx)] = least;
    }
  }
  return t;
}

}  // namespace

const Layout& layout() {
  static const Layout l = make_layout();
  return l;
}

const Tables& tables() {
  static const Tables t = make_tables();
  return t;
}

}  // namespace zermelo::othello::patterns
