// The 8 symmetries of the board and canonical forms (see symmetry.hpp).
#include "zermelo/games/ostle/symmetry.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace zermelo::ostle {
namespace {

struct Tables {
  std::array<std::array<int, kSquares>, kSymmetries> square{};
  std::array<std::array<int, kDirs>, kSymmetries> dir{};
  // Bitboard images by byte: bytes[g][k][v] = image of v << (8k).
  std::array<std::array<std::array<Bits, 256>, 4>, kSymmetries> bytes{};
  std::array<unsigned, kSquares> coset{};
  std::array<unsigned, kHoleClasses> stabiliser{};
  std::array<int, kSquares> rep_index{};

  Tables() {
    for (int g = 0; g < kSymmetries; ++g) {
      for (int s = 0; s < kSquares; ++s) {
        int f = file_of(s), r = rank_of(s);
        if (g & 4) std::swap(f, r);  // transpose first, then mirror files and/or ranks
        if (g & 1) f = 4 - f;
        if (g & 2) r = 4 - r;
        square[g][s] = square_at(f, r);
      }
      const int centre = square_at(2, 2);
      for (int d = 0; d < kDirs; ++d)
        for (int e = 0; e < kDirs; ++e)
          if (step(square[g][centre], e) == square[g][step(centre, d)]) dir[g][d] = e;
      for (int k = 0; k < 4; ++k)
        for (int v = 0; v < 256; ++v) {
          Bits img = 0;
          for (int b = 0; b < 8; ++b) {
            const int s = 8 * k + b;
            if ((v >> b & 1) && s < kSquares) img |= bit(square[g][s]);
          }
          bytes[g][k][v] = img;
        }
    }
    for (int s = 0; s < kSquares; ++s) {
      const int f = std::min(file_of(s), 4 - file_of(s)), r = std::min(rank_of(s), 4 - rank_of(s));
      const int rep = square_at(std::min(f, r), std::max(f, r));
      for (int i = 0; i < kHoleClasses; ++i)
        if (kHoleReps[i] == rep) rep_index[s] = i;
      for (int g = 0; g < kSymmetries; ++g)
        if (square[g][s] == rep) coset[s] |= 1u << g;
    }
    for (int i = 0; i < kHoleClasses; ++i) stabiliser[i] = coset[kHoleReps[i]];
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

int sym_square(int g, int s) { return tables().square[g][s]; }
int sym_dir(int g, int d) { return tables().dir[g][d]; }
Bits sym_bits(int g, Bits b) {
  const auto& t = tables().bytes[g];
  return t[0][b & 0xFF] | t[1][(b >> 8) & 0xFF] | t[2][(b >> 16) & 0xFF] | t[3][b >> 24];
}
int sym_forbid(int g, int forbid) {
  if (forbid == kNoForbidden) return forbid;
  const Move m = forbidden_move(forbid);
  return forbid_of(Move{static_cast<std::uint8_t>(sym_square(g, m.square)),
                        static_cast<std::uint8_t>(sym_dir(g, m.dir))});
}
Position sym_position(int g, const Position& p) {
  return Position{sym_bits(g, p.me), sym_bits(g, p.opp), sym_square(g, p.hole)};
}
int hole_rep_index(int square) { return tables().rep_index[square]; }
unsigned hole_coset(int square) { return tables().coset[square]; }
unsigned rep_stabiliser(int hole_index) { return tables().stabiliser[hole_index]; }

CanonicalPosition canonical_position(const Position& p) {
  const Tables& t = tables();
  CanonicalPosition best{Position{}, 0u};
  for (unsigned rest = t.coset[p.hole]; rest; rest &= rest - 1) {
    const int g = std::countr_zero(rest);
    const Bits me = sym_bits(g, p.me), opp = sym_bits(g, p.opp);
    if (!best.achieving || me < best.pos.me || (me == best.pos.me && opp < best.pos.opp)) {
      best.pos = Position{me, opp, t.square[g][p.hole]};
      best.achieving = 1u << g;
    } else if (me == best.pos.me && opp == best.pos.opp) {
      best.achieving |= 1u << g;
    }
  }
  return best;
}

CanonicalForbid canonical_forbid(unsigned achieving, int forbid) {
  if (std::popcount(achieving) == 1) return {sym_forbid(std::countr_zero(achieving), forbid), 1};
  CanonicalForbid best{1000, 0};
  for (unsigned rest = achieving; rest; rest &= rest - 1) {
    const int f = sym_forbid(std::countr_zero(rest), forbid);
    if (f < best.forbid)
      best = {f, 1};
    else if (f == best.forbid)
      ++best.state_stab;
  }
  return best;
}

Canonical canonicalize(const Position& p, int forbid) {
  const Tables& t = tables();
  const CanonicalPosition cp = canonical_position(p);
  const CanonicalForbid cf = canonical_forbid(cp.achieving, forbid);
  Canonical best;
  best.pos = cp.pos;
  best.forbid = cf.forbid;
  best.state_stab = cf.state_stab;
  // The stabiliser of the representative position as a set of symmetries (rarely more than 1).
  best.pos_stab = 1u;
  if (std::popcount(cp.achieving) > 1) {
    for (int g = 1; g < kSymmetries; ++g)
      if (t.square[g][best.pos.hole] == best.pos.hole && sym_bits(g, best.pos.me) == best.pos.me &&
          sym_bits(g, best.pos.opp) == best.pos.opp)
        best.pos_stab |= 1u << g;
  }
  return best;
}

}  // namespace zermelo::ostle
