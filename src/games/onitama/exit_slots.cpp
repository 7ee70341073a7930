// See zermelo/games/onitama/exit_slots.hpp.
#include "zermelo/games/onitama/exit_slots.hpp"

#include <algorithm>
#include <bit>

namespace zermelo::onitama {
namespace {

constexpr std::uint64_t kUnused = ~std::uint64_t{0};
constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};

// The set's bits renumbered among the bits of `within` (the set must lie inside it).
std::uint64_t compress(std::uint64_t set, std::uint64_t within) {
  std::uint64_t out = 0;
  for (; set; set &= set - 1) {
    const std::uint64_t below = (set & -set) - 1;
    out |= std::uint64_t{1} << std::popcount(within & below);
  }
  return out;
}

}  // namespace

ExitSlots::ExitSlots(const Rules& rules, bool symmetry)
    : rules_(rules), symmetry_(symmetry), most_(rules.width() - 1) {
  for (int n = 0; n <= 64; ++n) {
    binom_[n][0] = 1;
    for (int k = 1; k <= n; ++k)
      binom_[n][k] = binom_[n - 1][k - 1] + (k <= n - 1 ? binom_[n - 1][k] : 0);
  }
  // Blocks in the order of the game's tiers (fewer students first), so that the blocks a tier's
  // captures reach, one student fewer on either side, are neighbours.
  offset_.assign(static_cast<std::size_t>((most_ + 1) * (most_ + 1)), kUnused);
  std::uint64_t next = 0;
  for (int total = 0; total <= 2 * most_; ++total)
    for (int red = std::max(0, total - most_); red <= std::min(total, most_); ++red) {
      const int blue = total - red;
      if (symmetry_ && red < blue) continue;
      offset_[block(red, blue)] = next;
      next += block_size(red, blue);
    }
}

std::uint64_t ExitSlots::block_size(int red, int blue) const {
  const int cells = rules_.cells(), free = cells - red - blue;
  if (free < 0) return 0;
  const auto masters = static_cast<std::uint64_t>(free + 1);
  return binom_[cells][red] * binom_[cells - red][blue] * masters * masters *
         static_cast<std::uint64_t>(rules_.distributions()) * 2;
}

std::uint64_t ExitSlots::slot(const Position& p) const {
  const int cells = rules_.cells();
  const std::uint64_t board = (std::uint64_t{1} << cells) - 1;
  const std::uint64_t red = p.students[kRed], blue = p.students[kBlue];
  const int r = std::popcount(red), b = std::popcount(blue), free_cells = cells - r - b;
  if (symmetry_ && r < b) return kNoSlot;  // not a folded state (see the header)
  const std::uint64_t free = board & ~red & ~blue;
  auto colex = [&](std::uint64_t set) {
    std::uint64_t rank = 0;
    for (int i = 1; set; set &= set - 1, ++i) rank += binom_[std::countr_zero(set)][i];
    return rank;
  };
  auto master = [&](int cell) -> std::uint64_t {
    if (cell >= cells) return static_cast<std::uint64_t>(free_cells);  // captured
    return static_cast<std::uint64_t>(std::popcount(free & ((std::uint64_t{1} << cell) - 1)));
  };
  const auto masters = static_cast<std::uint64_t>(free_cells + 1);
  std::uint64_t s = colex(red) * binom_[cells - r][b] + colex(compress(blue, board & ~red));
  s = s * masters + master(p.master[kBlue]);
  s = s * masters + master(p.master[kRed]);
  s = s * static_cast<std::uint64_t>(rules_.distributions()) + static_cast<std::uint64_t>(p.dist);
  return offset_[block(r, b)] + s * 2 + static_cast<std::uint64_t>(p.player);
}

std::pair<std::uint64_t, std::uint64_t> ExitSlots::exits_of(int red, int blue) const {
  std::uint64_t first = kUnused, end = 0;
  auto add = [&](int r, int b) {
    if (r < 0 || b < 0) return;
    if (symmetry_ && r < b) std::swap(r, b);
    first = std::min(first, offset_[block(r, b)]);
    end = std::max(end, offset_[block(r, b)] + block_size(r, b));
  };
  // With the symmetry the twin tier's captures reach the same blocks, (b - 1, a) being (a, b - 1)'s
  // twin.
  add(red - 1, blue);
  add(red, blue - 1);
  return first == kUnused ? std::pair<std::uint64_t, std::uint64_t>{0, 0} : std::pair{first, end};
}

}  // namespace zermelo::onitama
