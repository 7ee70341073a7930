// A small transposition table of one search thread, for the nodes just above the last-empties
// code (solver.cpp: kShallowMax + 1 to kLocalMax empties).
//
// Why a file of its own: those nodes are the most numerous that store anything, and a probe of
// the shared table (transposition_table.hpp, hundreds of MiB) is a cache miss at each of them.
// Their transpositions are close by in the tree (the same few squares played in another order a
// few plies up), so a table of a few thousand slots an empties count, small enough to stay in the
// core's caches, finds most of them without the miss. Direct-mapped, newest wins; one thread
// writes it, so no atomics. Every stored bound is a bound of the exact value, true for good, so a
// slot never needs clearing.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "transposition_table.hpp"
#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/util/prefetch.hpp"

namespace zermelo::othello {

template <int kMin, int kMax, int kBits>
class LocalTable {
 public:
  static constexpr int kMinEmpties = kMin, kMaxEmpties = kMax;
  LocalTable() : slots_(std::size_t{kMax - kMin + 1} << kBits) {}

  bool probe(Bits p, Bits o, int empties, TTEntry& e) const {
    const Slot& s = slots_[at(p, o, empties)];
    if (!s.holds(p, o)) return false;
    e.lower = s.lower, e.upper = s.upper, e.move = s.move;
    return true;
  }

  // Asks the cache for the slot of (p, o) ahead of a probe or a store: the table outgrows the
  // core's own cache, so a probe may miss it.
  void prefetch(Bits p, Bits o, int empties) const {
    zermelo::prefetch(&slots_[at(p, o, empties)]);
  }

  // Same position: both results bound one exact value, so they intersect (as in the shared table).
  void store(Bits p, Bits o, int empties, int lower, int upper, int move) {
    Slot& s = slots_[at(p, o, empties)];
    if (s.holds(p, o)) {
      lower = std::max<int>(lower, s.lower);
      upper = std::min<int>(upper, s.upper);
      if (move < 0) move = s.move;
    }
    s.p = p, s.o = o;
    s.lower = static_cast<std::int8_t>(lower), s.upper = static_cast<std::int8_t>(upper);
    s.move = static_cast<std::int8_t>(move);
  }

 private:
  static constexpr std::int8_t kEmpty = -2;  // a free slot (moves are -1 for none, or 0..63)
  struct Slot {
    Bits p = 0, o = 0;
    std::int8_t lower = -127, upper = 127, move = kEmpty;
    bool holds(Bits p_, Bits o_) const { return p == p_ && o == o_ && move != kEmpty; }
  };
  // One region of 2^kBits slots an empties count. The hash is the high bits of two products,
  // cheaper than the shared table's mixer (transposition_table.hpp), which has to spread its keys
  // over hundreds of MiB; measured with this one (bench/results/othello.md).
  static std::size_t at(Bits p, Bits o, int empties) {
    const std::uint64_t h = p * 0x9E3779B97F4A7C15ULL ^ o * 0xC2B2AE3D27D4EB4FULL;
    return (std::size_t(empties - kMin) << kBits) | static_cast<std::size_t>(h >> (64 - kBits));
  }
  std::vector<Slot> slots_;
};

}  // namespace zermelo::othello
