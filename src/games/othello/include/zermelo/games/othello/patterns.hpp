// The pattern (n-tuple) evaluation of 8×8 positions: a sum of table weights, one looked up for
// every instance of every pattern on the board, plus mobility and a bias, in 1/128 disc.
//
// Why: the endgame solver orders its moves by shallow searches, and their quality decides how
// many positions the exact search visits (docs/othello.md, "Where the remaining gap is"). The
// strong engines order with an evaluation of this kind (Edax and Egaroucid describe theirs as
// patterns read as base-3 numbers, one weight table a pattern shared by its symmetric images,
// one weight set a game phase); this is our own set of patterns and our own weights, fitted by
// `zermelo othello train` on positions our solver labels (pattern_train.hpp) and stored in a
// checksummed file (pattern_file.hpp).
//
// A pattern is a set of squares of the canonical corner (A1 = bit 0). An instance reads the
// squares of a symmetric image: the board is transformed by one of the 8 symmetries and the
// pattern's own squares read from it, so every instance of a pattern reads its digits in the same
// order and shares one table. Digit i (square i of the pattern in bit order) is 0 empty, 1 the
// mover's disc, 2 the opponent's. Symmetries that map a pattern onto itself give one instance, and
// training ties the weights of readings that are mirror images of each other, so the evaluation
// of a position and of its 8 images is the same.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello::patterns {

constexpr int kPatternCount = 11;
// Changes whenever the patterns, their order or the weight layout change: a weights file records
// it and the loader refuses a file made for another set.
constexpr std::uint32_t kPatternSetId = 1;
constexpr int kUnitsPerDisc = 128;  // weights and evaluations are in 1/128 disc
constexpr int kMobilityEntries = 33;
constexpr int kMaxInstances = 64;

struct Pattern {
  const char* name;
  Bits squares;
};
// Edge with its two X squares, corner 3×3, corner 2×5, lines 2-4, diagonals of 8 to 4 squares.
inline constexpr std::array<Pattern, kPatternCount> kPatterns = {{
    {"edge+2x", 0x00000000000042ffULL},
    {"corner3x3", 0x0000000000070707ULL},
    {"corner2x5", 0x0000000000001f1fULL},
    {"line2", 0x000000000000ff00ULL},
    {"line3", 0x0000000000ff0000ULL},
    {"line4", 0x00000000ff000000ULL},
    {"diag8", 0x8040201008040201ULL},
    {"diag7", 0x0080402010080402ULL},
    {"diag6", 0x0000804020100804ULL},
    {"diag5", 0x0000008040201008ULL},
    {"diag4", 0x0000000080402010ULL},
}};

// Where everything sits in one phase's weights: each pattern's table (3^squares entries), then
// the mover's mobility (0..32 moves, 32 standing for more), the opponent's, and a bias by parity
// of the empties (even, odd).
struct Layout {
  std::array<int, kPatternCount> offset{};
  std::array<int, kPatternCount> size{};
  int mobility_p = 0, mobility_o = 0, parity = 0;
  int per_phase = 0;  // weights in one phase
};
const Layout& layout();

// One instance: the symmetry the board is read through, and the pattern.
struct Instance {
  std::uint8_t symmetry;
  std::uint8_t pattern;
};
// What the evaluation's inner loop reads for one instance, in one place.
struct Slot {
  Bits squares;            // the pattern's squares
  std::uint32_t offset;    // its table's first weight
  std::uint32_t symmetry;  // the image of the board it reads
};
struct Tables {
  std::vector<Instance> instances;            // in symmetry order, then pattern order
  std::vector<Slot> slots;                    // the same instances, for the inner loop
  std::array<std::uint16_t, 1024> ternary{};  // bits b_i -> sum b_i 3^i (up to 10 digits)
  std::array<std::vector<std::uint32_t>, kPatternCount> tied;  // index -> least tied index
};
const Tables& tables();

// The 8 images of a bitboard, image k = transform<8>(b, k).
inline std::array<Bits, 8> images(Bits b) {
  std::array<Bits, 8> t;
  t[0] = b;
  t[1] = flip_vertical<8>(b);
  t[2] = flip_horizontal<8>(b);
  t[3] = flip_horizontal<8>(t[1]);
  for (int k = 0; k < 4; ++k) t[static_cast<std::size_t>(k + 4)] = flip_diagonal(t[k]);
  return t;
}

inline std::uint32_t gather(Bits b, Bits mask) {
#ifdef __BMI2__
  return static_cast<std::uint32_t>(_pext_u64(b, mask));
#else
  std::uint32_t r = 0;
  int i = 0;
  for (Bits m = mask; m; m &= m - 1, ++i)
    if (b & (m & (0 - m))) r |= 1u << i;
  return r;
#endif
}

// Calls f(index into one phase's weights) for every feature of (p to move, o); with the moves of
// each side given (the caller often has them).
// The index into one phase's weights of one instance, the board's images given.
inline std::uint32_t slot_index(const Tables& t, const Slot& s, const std::array<Bits, 8>& ip,
                                const std::array<Bits, 8>& io) {
  return s.offset + t.ternary[gather(ip[s.symmetry], s.squares)] +
         2u * t.ternary[gather(io[s.symmetry], s.squares)];
}
// The index of the mobility and parity features.
inline std::array<std::uint32_t, 3> other_indices(Bits p, Bits o, Bits p_moves, Bits o_moves) {
  const Layout& l = layout();
  return {
      static_cast<std::uint32_t>(l.mobility_p + std::min(popcount(p_moves), kMobilityEntries - 1)),
      static_cast<std::uint32_t>(l.mobility_o + std::min(popcount(o_moves), kMobilityEntries - 1)),
      static_cast<std::uint32_t>(l.parity + (popcount(~(p | o)) & 1))};
}

// Calls f(index into one phase's weights) for every feature of (p to move, o); with the moves of
// each side given (the caller often has them).
template <typename F>
inline void for_each_feature(Bits p, Bits o, Bits p_moves, Bits o_moves, F&& f) {
  const Tables& t = tables();
  const std::array<Bits, 8> ip = images(p), io = images(o);
  for (const Slot& s : t.slots) f(static_cast<int>(slot_index(t, s, ip, io)));
  for (std::uint32_t i : other_indices(p, o, p_moves, o_moves)) f(static_cast<int>(i));
}

// A whole weight set: `phases` phases, phase k for positions with k*width .. k*width+width-1
// empties (the last phase also for any more).
struct PatternWeights {
  int phases = 0;
  int phase_width = 0;
  std::vector<std::int16_t> weights;  // phases × layout().per_phase

  int phase_of(int empties) const { return std::min(phases - 1, empties / phase_width); }
  const std::int16_t* phase(int empties) const {
    return weights.data() + static_cast<std::size_t>(phase_of(empties)) *
                                static_cast<std::size_t>(layout().per_phase);
  }
  // The estimated final disc difference for the side to move, in 1/128 disc.
  int evaluate(Bits p, Bits o, Bits p_moves, Bits o_moves) const {
    const std::int16_t* w = phase(popcount(~(p | o)));
    const Tables& t = tables();
    const std::array<Bits, 8> ip = images(p), io = images(o);
    int sum = 0;
    for (const Slot& s : t.slots) sum += w[slot_index(t, s, ip, io)];
    return total(w, sum, p, o, p_moves, o_moves);
  }
  // The evaluation from the sum of the instances' weights `patterns` (phase weights w): plus
  // mobility and parity, clamped to the score range.
  static int total(const std::int16_t* w, int patterns, Bits p, Bits o, Bits p_moves,
                   Bits o_moves) {
    for (std::uint32_t i : other_indices(p, o, p_moves, o_moves)) patterns += w[i];
    return std::clamp(patterns, -64 * kUnitsPerDisc, 64 * kUnitsPerDisc);
  }
  int evaluate(Bits p, Bits o) const {
    return evaluate(p, o, legal_moves<8>(p, o), legal_moves<8>(o, p));
  }
};

// The weights committed with the source (data/othello/patterns.bin, compiled into the binary),
// checked when first used; throws std::runtime_error if that file is damaged.
const PatternWeights& default_pattern_weights();

}  // namespace zermelo::othello::patterns
