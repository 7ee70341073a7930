// The 8 symmetries of the board and canonical forms (see symmetry.hpp).
#include "zermelo/games/ostle/symmetry.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace zermelo::ostle {
namespace {

struct Tables {
  std::array<std::array<int, kDirs>, kSymmetries> dir{};
  std::array<unsigned, kSquares> coset{};
  std::array<unsigned, kHoleClasses> stabiliser{};
  std::array<int, kSquares> rep_index{};

  Tables() {
    for (int g = 0; g < kSymmetries; ++g) {
      const int centre = square_at(2, 2);
      for (int d = 0; d < kDirs; ++d)
        for (int e = 0; e < kDirs; ++e)
          if (step(sym_square(g, centre), e) == sym_square(g, step(centre, d))) dir[g][d] = e;
    }
    for (int s = 0; s < kSquares; ++s) {
      const int f = std::min(file_of(s), 4 - file_of(s)), r = std::min(rank_of(s), 4 - rank_of(s));
      const int rep = square_at(std::min(f, r), std::max(f, r));
      for (int i = 0; i < kHoleClasses; ++i)
        if (kHoleReps[i] == rep) rep_index[s] = i;
      for (int g = 0; g < kSymmetries; ++g)
        if (sym_square(g, s) == rep) coset[s] |= 1u << g;
    }
    for (int i = 0; i < kHoleClasses; ++i) stabiliser[i] = coset[kHoleReps[i]];
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

int sym_dir(int g, int d) { return tables().dir[g][d]; }
int sym_forbid(int g, int forbid) {
  if (forbid == kNoForbidden) return forbid;
  const Move m = forbidden_move(forbid);
  return forbid_of(Move{static_cast<std::uint8_t>(sym_square(g, m.square)),
                        static_cast<std::uint8_t>(sym_dir(g, m.dir))});
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
      best.pos = Position{me, opp, sym_square(g, p.hole)};
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
      if (sym_square(g, best.pos.hole) == best.pos.hole &&
          sym_bits(g, best.pos.me) == best.pos.me && sym_bits(g, best.pos.opp) == best.pos.opp)
        best.pos_stab |= 1u << g;
  }
  return best;
}

}  // namespace zermelo::ostle
