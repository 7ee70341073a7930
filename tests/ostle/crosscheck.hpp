// Random play checked move by move against the reference rules: the fast engine and the
// reference must agree on the legal moves (including the repetition rule, which the reference
// applies by comparing with the full previous position), on every move's result, on wins and on
// checkmate, and the fast engine's forbidden code must be one it calls possibly reachable.
// Shared by the test (hundreds of thousands of states) and the bench (millions), with the random
// positions the Ostle tests draw: any, symmetric, and a few moves from symmetric.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/ostle/reference.hpp"
#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/symmetry.hpp"

namespace ostle_check {

struct Stats {
  std::uint64_t states = 0, moves = 0, mismatches = 0;
  std::string first_error;
};

inline zermelo::ostle::Position random_position(std::mt19937_64& rng) {
  using namespace zermelo::ostle;
  int squares[kSquares];
  for (int i = 0; i < kSquares; ++i) squares[i] = i;
  std::shuffle(squares, squares + kSquares, rng);
  const int mine = 4 + static_cast<int>(rng() % 2), theirs = 4 + static_cast<int>(rng() % 2);
  Position p;
  p.hole = squares[0];
  for (int i = 0; i < mine; ++i) p.me |= bit(squares[1 + i]);
  for (int i = 0; i < theirs; ++i) p.opp |= bit(squares[1 + mine + i]);
  return p;
}

// A random position with at least one state (almost all: a few have no possible last ply).
inline zermelo::ostle::Position random_position_with_states(std::mt19937_64& rng) {
  zermelo::ostle::Position p = random_position(rng);
  while (zermelo::ostle::reachable_forbid_codes(p).size == 0) p = random_position(rng);
  return p;
}

// A position fixed by symmetry g, with the hole on its axis, and 4-5 pieces a side (or none).
inline std::optional<zermelo::ostle::Position> random_symmetric_position(std::mt19937_64& rng,
                                                                         int g) {
  using namespace zermelo::ostle;
  Position p;
  std::vector<int> fixed;
  for (int s = 0; s < kSquares; ++s)
    if (sym_square(g, s) == s) fixed.push_back(s);
  p.hole = fixed[rng() % fixed.size()];
  for (int s = 0; s < kSquares; ++s) {
    const int t = sym_square(g, s);
    if (s == p.hole || t < s) continue;
    const auto roll = rng() % 10;
    const Bits b = bit(s) | bit(t);
    if (roll < 2)
      p.me |= b;
    else if (roll < 4)
      p.opp |= b;
  }
  const auto fits = [](int n) { return n == 4 || n == 5; };
  if (!fits(p.my_count()) || !fits(p.opp_count())) return std::nullopt;
  return p;
}

// A position `plies` random moves (each keeping the game going) from one fixed by a reflection
// or the transpose, with 4-5 pieces a side: near symmetric, yet mostly not symmetric.
inline zermelo::ostle::Position random_near_symmetric_position(std::mt19937_64& rng, int plies) {
  using namespace zermelo::ostle;
  for (;;) {
    std::optional<Position> p = random_symmetric_position(rng, 1 << (rng() % 3));
    for (int ply = 0; p && ply < plies; ++ply) {
      const MoveList moves = legal_moves(*p, kNoForbidden);
      const MoveResult r = apply_move(*p, moves.moves[rng() % static_cast<unsigned>(moves.size)]);
      p = r.outcome == Outcome::kContinues ? std::optional(r.next) : std::nullopt;
    }
    if (p) return *p;
  }
}

inline ostle_ref::Move to_ref(zermelo::ostle::Move m) {
  return ostle_ref::Move{zermelo::ostle::file_of(m.square), zermelo::ostle::rank_of(m.square),
                         m.dir};
}

inline Stats random_walks(std::uint64_t seed, int walks, int max_plies) {
  using namespace zermelo::ostle;
  std::mt19937_64 rng(seed);
  Stats st;
  auto fail = [&](const std::string& what, const Position& p, int forbid) {
    if (st.mismatches++ == 0) st.first_error = what + " at " + state_to_text(p, forbid);
  };
  for (int w = 0; w < walks; ++w) {
    Position p = random_position(rng);
    while (!has_plain_producer(p)) p = random_position(rng);  // the walk starts at (p, none)
    int forbid = kNoForbidden;
    ostle_ref::Board board = ostle_ref::from_text(to_text(p));
    std::optional<ostle_ref::Board> before;
    for (int ply = 0; ply < max_plies; ++ply) {
      ++st.states;
      const MoveList fast = legal_moves(p, forbid);
      const auto ref = ostle_ref::legal_moves(board, before);
      bool same = static_cast<std::size_t>(fast.size) == ref.size();
      for (int i = 0; same && i < fast.size; ++i) same = to_ref(fast.moves[i]) == ref[i];
      if (!same) fail("legal moves differ", p, forbid);
      bool code_ok = false;
      for (int c : reachable_forbid_codes(p)) code_ok |= c == forbid;
      if (!code_ok) fail("forbidden code not possibly reachable", p, forbid);
      if (is_checkmate(p) != ostle_ref::is_checkmate(board, before))
        fail("checkmate differs", p, forbid);
      for (const Move& m : fast) {
        ++st.moves;
        const MoveResult r = apply_move(p, m);
        const ostle_ref::Played q = ostle_ref::play(board, to_ref(m));
        const int outcome = r.outcome == Outcome::kContinues   ? 0
                            : r.outcome == Outcome::kMoverWins ? 1
                                                               : 2;
        const int ref_outcome = q.result == ostle_ref::Result::kContinues   ? 0
                                : q.result == ostle_ref::Result::kMoverWins ? 1
                                                                            : 2;
        if (outcome != ref_outcome) fail("outcome of " + move_name(m) + " differs", p, forbid);
        if (outcome == 0 && to_text(r.next) != ostle_ref::to_text(q.next))
          fail("result of " + move_name(m) + " differs", p, forbid);
      }
      // Walk on with a random move that does not end the game (to see long games too).
      MoveList going;
      for (const Move& m : fast)
        if (apply_move(p, m).outcome == Outcome::kContinues) going.push(m);
      if (going.size == 0) break;
      const Move m = going.moves[rng() % static_cast<std::uint64_t>(going.size)];
      const MoveResult r = apply_move(p, m);
      before = board;
      board = ostle_ref::play(board, to_ref(m)).next;
      p = r.next;
      forbid = r.next_forbid;
    }
  }
  return st;
}

}  // namespace ostle_check
