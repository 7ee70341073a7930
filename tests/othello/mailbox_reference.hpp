// Othello rules and an alpha-beta search written the plain way, one square at a time, for tests.
//
// Why: the solver and the fast 8×8 kernels share bitboard code, so checking them against
// references built on those same bitboards would repeat any mistake in both. This file walks the
// board square by square in eight directions and searches with a bare fail-hard alpha-beta (no
// table, no ordering, no cut-off tricks): slow, and independent of everything it checks.
#pragma once
#include <algorithm>
#include <cstdint>

namespace zermelo::othello::test_support {

// The rules of an N×N board in the top-left corner of the 8×8 layout (bit = row * 8 + column).
template <int N>
struct Mailbox {
  static constexpr int kDr[8] = {0, 0, 1, -1, 1, 1, -1, -1};
  static constexpr int kDc[8] = {1, -1, 0, 0, 1, -1, 1, -1};

  static bool has(std::uint64_t b, int r, int c) { return (b >> (r * 8 + c)) & 1; }

  static bool on(int r, int c) { return r >= 0 && r < N && c >= 0 && c < N; }

  // Discs flipped by p playing sq, walking each direction square by square.
  static std::uint64_t flips(std::uint64_t p, std::uint64_t o, int sq) {
    const int r0 = sq / 8, c0 = sq % 8;
    if (!on(r0, c0) || has(p | o, r0, c0)) return 0;
    std::uint64_t all = 0;
    for (int d = 0; d < 8; ++d) {
      std::uint64_t run = 0;
      int r = r0 + kDr[d], c = c0 + kDc[d];
      while (on(r, c) && has(o, r, c)) {
        run |= std::uint64_t{1} << (r * 8 + c);
        r += kDr[d];
        c += kDc[d];
      }
      if (run && on(r, c) && has(p, r, c)) all |= run;
    }
    return all;
  }

  static std::uint64_t moves(std::uint64_t p, std::uint64_t o) {
    std::uint64_t m = 0;
    for (int sq = 0; sq < 64; ++sq)
      if (flips(p, o, sq)) m |= std::uint64_t{1} << sq;
    return m;
  }

  static int final_score(std::uint64_t p, std::uint64_t o) {
    int pc = 0, oc = 0;
    for (int sq = 0; sq < 64; ++sq) {
      pc += static_cast<int>((p >> sq) & 1);
      oc += static_cast<int>((o >> sq) & 1);
    }
    const int empties = N * N - pc - oc;
    return pc > oc ? pc - oc + empties : pc < oc ? pc - oc - empties : 0;
  }

  // Fail-hard alpha-beta: the exact value when it lies in (alpha, beta), else the bound hit.
  static int alpha_beta(std::uint64_t p, std::uint64_t o, int alpha, int beta) {
    bool moved = false;
    for (int sq = 0; sq < 64 && alpha < beta; ++sq) {
      const std::uint64_t f = flips(p, o, sq);
      if (!f) continue;
      moved = true;
      const std::uint64_t np = o & ~f, no = p | f | (std::uint64_t{1} << sq);
      alpha = std::max(alpha, -alpha_beta(np, no, -beta, -alpha));
    }
    if (moved) return std::min(alpha, beta);
    if (moves(o, p)) return -alpha_beta(o, p, -beta, -alpha);
    return std::clamp(final_score(p, o), alpha, beta);
  }
};

}  // namespace zermelo::othello::test_support
