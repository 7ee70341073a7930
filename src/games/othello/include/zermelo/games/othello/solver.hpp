// The exact Othello endgame solver: the perfect final disc difference of a position and a best
// move.
//
// Why: the weak-solve pipeline (spec step 4) ends every line at 36 empties in an exact solve, and
// the FFO test suite is the standard yardstick for that solver. It is a negamax alpha-beta with
// principal-variation search, a shared transposition table, fastest-first (mobility) ordering,
// quadrant parity, stability cut-offs and hand-specialised code for the last six empties, on the
// bitboards of bitboard.hpp, for every board size. Scores are disc differences for the side to
// move with empty squares going to the winner (always even), in [-N*N, N*N].
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/games/othello/patterns.hpp"
#include "zermelo/games/othello/search_stats.hpp"

namespace zermelo::othello {

// What the ordering searches value their leaves with: the pattern evaluation (8×8; the weights
// given, or the compiled-in ones) or the older mobility heuristic (every size; smaller boards
// always use it). Either way the scores are exact: ordering changes only the work.
enum class Ordering { kPatterns, kHeuristic };

struct SolveOptions {
  unsigned threads = 1;  // threads share null-window nodes' moves (young-brothers-wait)
  int tt_bits = 22;      // transposition table of 2^tt_bits slots (24 bytes each)
  int alpha = -64;       // search window [alpha, beta] (clamped to the board's score range): a
  int beta = 64;         // score outside is reported as a bound (exact = false); alpha == beta
                         // tests one value, the cheapest proof of a known result
  bool principal_variation = true;
  Ordering ordering = Ordering::kPatterns;
  const patterns::PatternWeights* weights = nullptr;  // kPatterns: null = the compiled-in ones
};

struct SolveResult {
  int score = 0;  // for the side to move
  // 0: the score is exact; -1: it fell below the window, the true score is at most `score`;
  // +1: above it, the true score is at least `score`.
  int outside = 0;
  bool exact() const { return outside == 0; }
  int best_move = -1;       // square, or kPass (-1) when the side to move must pass / game over
  std::vector<int> pv;      // principal variation, passes included
  std::uint64_t nodes = 0;  // positions the exact search visits
  std::uint64_t ordering_nodes = 0;  // and those the heuristic move-ordering searches visit
  double seconds = 0;                // wall clock
  double cpu_seconds = 0;  // CPU time of the process (all threads): fair on a shared machine
  int empties = 0;
  SearchStats stats;  // the nodes and cut-offs by empties (their sum is `nodes`)
};

// Solves (p to move, o). Throws std::invalid_argument for an impossible position (overlapping
// discs, discs outside the board).
template <int N>
SolveResult solve(Bits p, Bits o, const SolveOptions& options = {});

// A solver that keeps its transposition table from one call to the next: the proof pipeline
// solves thousands of related positions (the leaves of one proof tree share subtrees), and every
// bound in the table is a fact about a position's exact value, so it stays true for any root.
// One thread; give each worker thread its own.
template <int N>
class EndgameSolver {
 public:
  explicit EndgameSolver(int tt_bits = 20, Ordering ordering = Ordering::kPatterns,
                         const patterns::PatternWeights* weights = nullptr);
  ~EndgameSolver();
  EndgameSolver(const EndgameSolver&) = delete;
  EndgameSolver& operator=(const EndgameSolver&) = delete;
  // Score within [alpha, beta] exactly; outside it, a bound (exact = false), as SolveOptions.
  // No principal variation.
  SolveResult solve(Bits p, Bits o, int alpha, int beta);
  // Whether the value exceeds `threshold`, by one null-window search (window threshold,
  // threshold + 1): `score` is a bound (outside = +1: at least it, above the threshold; -1: at
  // most it), and above the threshold `best_move` is a move that reaches it. Cheaper than `solve`
  // when one bound is all that is asked.
  SolveResult exceeds(Bits p, Bits o, int threshold);

 private:
  SolveResult search(Bits p, Bits o, int a, int b);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Exact scores of every legal move of the side to move (each by a full-window solve), in square
// order.
template <int N>
std::vector<std::pair<int, int>> solve_each_move(Bits p, Bits o, const SolveOptions& options = {});

// Plain minimax over the whole game tree, no pruning, no table: the reference for tiny boards.
template <int N>
int minimax(Bits p, Bits o, std::uint64_t* nodes = nullptr);

}  // namespace zermelo::othello
