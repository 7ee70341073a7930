// A perfect, dense, order-preserving index of canonical Ostle positions, and the 64-bit state key
// built on it. The out-of-core solver needs keys that are dense (a value run is indexed by rank)
// and sorted runs of positions that are plain index ranges; this file gives both.
//
// Classes: a position's class is (material, hole representative). material = 2*(mover pieces-4)
// + (opponent pieces-4): 0 = 4v4, 1 = 4v5, 2 = 5v4, 3 = 5v5; hole = index in a1 a2 a3 b2 b3 c3.
// class id = 6*material + hole (0..23), so each material tier is a contiguous range of classes.
//
// Rank within a class: positions are ordered by (mover bitboard, opponent bitboard) as unsigned
// numbers, which for k-subsets is the colex order of the combinatorial number system. The mover
// set M is ranked over the 24 non-hole squares, the opponent set over the squares left. Only
// canonical positions are counted: M must be the smallest of its images under the stabiliser
// G_h of the hole square; when some non-identity g in G_h fixes M (the subgroup H), the
// opponent sets that are smallest under H are listed explicitly (few), otherwise every opponent
// set counts and its rank is its colex rank. Tables: one entry per canonical M with the number of
// positions before it.
//
// State key (64 bits):  bits 36..40 class id | bits 7..35 rank in class (29 bits; the largest
// class has 494,236,512 < 2^29 positions) | bits 0..6 forbidden-move code (0 none, else 1 + the
// move code 4*square + dir, at most 100; see board.hpp). A position's key is its state key with
// code 0. Sorting keys sorts by class, rank, code, so a class or a rank range is a key range.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/symmetry.hpp"

namespace zermelo::ostle {

constexpr int kMaterials = 4;
constexpr int kClasses = kMaterials * kHoleClasses;
constexpr int material_of(int my_count, int opp_count) {
  return 2 * (my_count - 4) + (opp_count - 4);
}
constexpr int class_id(int material, int hole_index) {
  return material * kHoleClasses + hole_index;
}
constexpr int class_material(int cls) { return cls / kHoleClasses; }
constexpr int class_hole_index(int cls) { return cls % kHoleClasses; }
constexpr int class_my_count(int cls) { return 4 + class_material(cls) / 2; }
constexpr int class_opp_count(int cls) { return 4 + class_material(cls) % 2; }
std::string material_name(int material);  // "4v4", "4v5", "5v4", "5v5" (mover first)
std::string class_name(int cls);          // e.g. "5v4/a2"
// The class of a canonical position (hole on a representative square).
int class_of(const Position& canonical);

using Key = std::uint64_t;
constexpr int kRankBits = 29;
constexpr int kForbidBits = 7;
constexpr int kClassShift = kForbidBits + kRankBits;
constexpr Key make_key(int cls, std::uint64_t rank, int forbid) {
  return (Key(cls) << kClassShift) | (rank << kForbidBits) | Key(forbid);
}
constexpr int key_class(Key k) { return static_cast<int>(k >> kClassShift); }
constexpr std::uint64_t key_rank(Key k) {
  return (k >> kForbidBits) & ((std::uint64_t{1} << kRankBits) - 1);
}
constexpr int key_forbid(Key k) { return static_cast<int>(k & ((1u << kForbidBits) - 1)); }

class PositionIndex {
 public:
  static const PositionIndex& get();  // built once (about 0.1 s), then read-only and thread-safe

  std::uint64_t size(int cls) const { return classes_[cls].total; }
  // Rank of a canonical position in its class (undefined for a non-canonical one).
  std::uint64_t rank(const Position& canonical) const;
  Position unrank(int cls, std::uint64_t rank) const;

  // Calls f(rank, position, stab) for every canonical position of `cls` with rank in [lo, hi),
  // in rank order; stab is the set of symmetries fixing the position (bit g; bit 0 always).
  // This is the producer the enumeration and the state-set builders run per index range.
  template <class F>
  void for_each(int cls, std::uint64_t lo, std::uint64_t hi, F&& f) const;

 private:
  PositionIndex();
  struct MEntry {
    Bits me;
    std::uint64_t offset;  // positions of the class before this M
    std::int32_t list;     // -1: every opponent set; else index into ClassTable::lists
    unsigned sym;          // H: symmetries of G_h fixing M (bit g)
  };
  struct ClassTable {
    int hole = 0, k_me = 0, k_opp = 0;
    Bits nonhole = 0;
    std::uint64_t total = 0;
    std::uint64_t opp_sets = 0;            // C(24 - k_me, k_opp)
    std::vector<MEntry> entries;           // canonical M, increasing
    std::vector<std::int32_t> entry_of_m;  // colex rank of M -> entry, -1 if not canonical
    // colex rank of M -> its offset, or kListed (look in entry_of_m) or kNotCanonical: the one
    // small array that rank() touches for almost every position.
    std::vector<std::uint32_t> offset_of_m;
    std::vector<std::vector<Bits>> lists;  // canonical opponent sets for symmetric M, increasing
  };
  std::vector<ClassTable> classes_;
  static constexpr std::uint32_t kListed = 0xFFFFFFFEu, kNotCanonical = 0xFFFFFFFFu;

  static std::uint64_t colex_rank(Bits compact);
  static Bits colex_unrank(std::uint64_t rank, int k);
  std::size_t entry_at(const ClassTable& t, std::uint64_t rank) const;
};

// Binomial coefficients C(n, k) for n <= 25.
std::uint64_t binomial(int n, int k);

inline Bits next_combination(Bits x) {  // the next larger number with as many bits set
  const Bits low = x & (~x + 1), ripple = x + low;
  return (((ripple ^ x) >> 2) >> std::countr_zero(x)) | ripple;
}

template <class F>
void PositionIndex::for_each(int cls, std::uint64_t lo, std::uint64_t hi, F&& f) const {
  const ClassTable& t = classes_[cls];
  hi = std::min(hi, t.total);
  if (lo >= hi) return;
  std::size_t e = entry_at(t, lo);
  std::uint64_t r = lo;
  while (r < hi) {
    const MEntry& m = t.entries[e];
    const std::uint64_t end = e + 1 < t.entries.size() ? t.entries[e + 1].offset : t.total;
    const std::uint64_t stop = std::min(end, hi);
    const Bits free = t.nonhole & ~m.me;
    if (m.list < 0) {
      Bits compact = colex_unrank(r - m.offset, t.k_opp);
      for (; r < stop; ++r, compact = next_combination(compact))
        f(r, Position{m.me, pdep(compact, free), t.hole}, 1u);
    } else {
      const std::vector<Bits>& list = t.lists[m.list];
      for (; r < stop; ++r) {
        const Bits opp = list[r - m.offset];
        unsigned stab = 1u;
        for (unsigned rest = m.sym & ~1u; rest; rest &= rest - 1)
          if (sym_bits(std::countr_zero(rest), opp) == opp) stab |= rest & (~rest + 1);
        f(r, Position{m.me, opp, t.hole}, stab);
      }
    }
    ++e;
  }
}

// The canonical state key of any position and forbidden code, with the size of its stabiliser.
struct KeyedState {
  Key key;
  int stab;
};
KeyedState state_key(const Position& p, int forbid);
// The representative position and forbidden code of a key.
std::pair<Position, int> key_state(Key k);
// Forbidden codes of a canonical position that are distinct states (possibly reachable, and the
// smallest of their images when the position is symmetric), in increasing order.
ForbidList distinct_forbid_codes(const Position& p, unsigned stab);
// Their number (fast when the position has no symmetry).
int distinct_forbid_count(const Position& p, unsigned stab);

}  // namespace zermelo::ostle
