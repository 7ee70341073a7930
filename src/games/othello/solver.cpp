// The exact endgame solver (see solver.hpp). Layers, from the leaves up:
//   last1..last6      null-window code for the last 1-6 empties, a template on the count (no move
//                     generator, squares in quadrant-parity then square-class order, the class
//                     order handed down from 6 to 5 empties; a neighbour test before each flip;
//                     the last square's flips counted by table lookups; a stability cut-off at
//                     4-6 empties);
//   nws_deep          table (up to 14 empties the thread's own small one, above it the shared
//                     one), stability cut-off, enhanced transposition cut-off, fastest-first plus
//                     a heuristic shallow search for ordering from 11 empties;
//   pvs               principal-variation search (a null window below the root goes to
//                     nws, and only an open window orders its moves deeper);
//   split_moves       with threads, a null-window node's moves after the first shared with idle
//                     threads (young-brothers-wait, split_pool.hpp).
// All null-window functions are fail-soft: a result v > alpha means the value is >= v, else <= v.
#include "zermelo/games/othello/solver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "local_table.hpp"
#include "split_pool.hpp"
#include "stability.hpp"
#include "transposition_table.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/pattern_children.hpp"
#include "zermelo/games/othello/perft.hpp"

namespace zermelo::othello {
namespace {

// ---------------------------------------------------------------------------------------------
// Board geometry the search needs beyond the rules: square classes, quadrants, neighbours, and
// the shifts used by the stability computation.

template <int N>
struct SearchGeometry {
  using G = Geometry<N>;
  static constexpr Bits kMask = G::kMask;

  static constexpr bool on(int r, int c) { return r >= 0 && r < N && c >= 0 && c < N; }
  static constexpr Bits sq_bit(int r, int c) { return on(r, c) ? bit(r * 8 + c) : 0; }

  static constexpr Bits corners() {
    return sq_bit(0, 0) | sq_bit(0, N - 1) | sq_bit(N - 1, 0) | sq_bit(N - 1, N - 1);
  }
  static constexpr Bits x_squares() {
    return sq_bit(1, 1) | sq_bit(1, N - 2) | sq_bit(N - 2, 1) | sq_bit(N - 2, N - 2);
  }
  static constexpr Bits c_squares() {
    return sq_bit(0, 1) | sq_bit(1, 0) | sq_bit(0, N - 2) | sq_bit(1, N - 1) | sq_bit(N - 2, 0) |
           sq_bit(N - 1, 1) | sq_bit(N - 2, N - 1) | sq_bit(N - 1, N - 2);
  }
  static constexpr Bits kCorners = corners();
  static constexpr Bits kXSq = x_squares();
  // Squares tried in this order by the shallow search: corners, plain squares, C, then X squares.
  static constexpr Bits kClass[4] = {corners(), kMask & ~corners() & ~x_squares() & ~c_squares(),
                                     c_squares() & ~corners(), x_squares()};

  static constexpr std::array<Bits, 4> make_quadrants() {
    std::array<Bits, 4> q{};
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) q[(r >= N / 2) * 2 + (c >= N / 2)] |= bit(r * 8 + c);
    return q;
  }
  static constexpr std::array<Bits, 4> kQuadrants = make_quadrants();
  static constexpr std::array<int, 64> make_quadrant_of() {
    std::array<int, 64> q{};
    for (int sq = 0; sq < 64; ++sq) q[sq] = ((sq / 8) >= N / 2) * 2 + ((sq % 8) >= N / 2);
    return q;
  }
  static constexpr std::array<int, 64> kQuadrantOf = make_quadrant_of();

  static constexpr std::array<Bits, 64> make_neighbours() {
    std::array<Bits, 64> nb{};
    for (int sq = 0; sq < 64; ++sq)
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          if ((dr || dc) && on(sq / 8 + dr, sq % 8 + dc))
            nb[sq] |= bit((sq / 8 + dr) * 8 + sq % 8 + dc);
    return nb;
  }
  static constexpr std::array<Bits, 64> kNeighbours = make_neighbours();

  // Quadrants holding an odd number of empties: moves there first (the parity heuristic).
  static Bits odd_quadrants(Bits empty) {
    Bits odd = 0;
    for (Bits q : kQuadrants)
      if (popcount(empty & q) & 1) odd |= q;
    return odd;
  }
};

// Flip counts for the last empty square, where every other square is taken: along each of the 4
// lines through the square, the discs of the mover read as a bit pattern (pext) index a table of
// flip counts, so the count costs 4 lookups instead of 8 ray scans (BMI2; ray scans otherwise).
template <int N>
struct LastFlip {
  struct Line {
    Bits mask = 0;
    int len = 0, pos = 0;
    std::size_t offset = 0;  // (len * 8 + pos) * 256: a lookup is one add
  };
  struct Tables {
    std::array<std::array<Line, 4>, 64> lines{};
    // count[(len * 8 + pos) * 256 + pattern]: discs flipped by the mover at `pos` of a full line
    // of `len` squares.
    std::array<std::uint8_t, 9 * 8 * 256> count{};
  };
  static Tables make() {
    Tables t;
    const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int sq = 0; sq < 64; ++sq) {
      const int r0 = sq / 8, c0 = sq % 8;
      if (r0 >= N || c0 >= N) continue;
      for (int k = 0; k < 4; ++k) {
        Line& l = t.lines[sq][k];
        for (int step_ = -7; step_ <= 7; ++step_) {
          const int r = r0 + step_ * dr[k], c = c0 + step_ * dc[k];
          if (r >= 0 && r < N && c >= 0 && c < N) l.mask |= bit(r * 8 + c);
        }
        l.len = popcount(l.mask);
        l.pos = popcount(l.mask & (bit(sq) - 1));
        l.offset = static_cast<std::size_t>((l.len * 8 + l.pos) * 256);
      }
    }
    for (int len = 1; len <= 8; ++len)
      for (int pos = 0; pos < len; ++pos)
        for (int pat = 0; pat < (1 << len); ++pat) {
          int total = 0;
          for (int dir : {-1, 1}) {
            int run = 0, i = pos + dir;
            while (i >= 0 && i < len && !(pat >> i & 1)) ++run, i += dir;
            if (i >= 0 && i < len) total += run;  // stopped on a mover's disc
          }
          t.count[static_cast<std::size_t>((len * 8 + pos) * 256 + pat)] =
              static_cast<std::uint8_t>(total);
        }
    return t;
  }
  static inline const Tables kTables = make();

  static int count(Bits p, Bits o, int sq) {
#ifdef __BMI2__
    (void)o;
    const Tables& t = kTables;
    // Written out: GCC kept the loop over the four lines (0.9 % more instructions in all).
    const std::array<Line, 4>& l = t.lines[sq];
    return t.count[l[0].offset + _pext_u64(p, l[0].mask)] +
           t.count[l[1].offset + _pext_u64(p, l[1].mask)] +
           t.count[l[2].offset + _pext_u64(p, l[2].mask)] +
           t.count[l[3].offset + _pext_u64(p, l[3].mask)];
#else
    return popcount(flips<N>(p, o, sq));
#endif
  }
};

// ---------------------------------------------------------------------------------------------

constexpr int kShallowMax = 6;  // up to this many empties: no table, no sorting; above: table,
                                // sorting, stability cut-off
constexpr int kEtcMin = 9;      // enhanced transposition cut-off from here
constexpr int kLocalMax = 14;   // up to this many empties: the thread's own table (local_table.hpp)
constexpr int kLocalBits = 13;  // 2^13 slots an empties count, 1.5 MiB a thread; measured in
                                // bench/results/othello.md (12-18 and 11-13 bits within noise)
constexpr int kSplitMin = 16;   // null-window nodes with at least this many empties may split
constexpr int kSymmetryPlies =
    12;  // positions with at most this many discs: merge mirror-image moves

struct MoveItem {
  int sq;
  Bits f;
  int score;
  Bits replies;  // the opponent's moves after this one (the ordering search's leaves use them)
};

using Pool = SplitPool<MoveItem>;

template <int N>
class Searcher {
  using SG = SearchGeometry<N>;
  using Point = Pool::Point;
  static constexpr int S = N * N;
  static constexpr Bits M = Geometry<N>::kMask;

 public:
  // pool: the threads' shared split points, or null for a search on this thread alone.
  Searcher(TranspositionTable& tt, Pool* pool, const patterns::PatternWeights* eval)
      : tt_(tt), pool_(pool), eval_(eval) {}
  SearchStats stats;                 // the counts by empties (search_stats.hpp)
  std::uint64_t ordering_nodes = 0;  // positions the move-ordering searches visit (not in nodes)
  std::uint64_t nodes() const { return stats.nodes(); }

  // ---- last empties ----
  int last1(Bits p, Bits o, int sq) {
    ++stats.at(1).nodes;
    const int pc = popcount(p);
    int n = LastFlip<N>::count(p, o, sq);
    if (n) return 2 * (pc + n + 1) - S;
    n = LastFlip<N>::count(o, p, sq);
    if (n) return 2 * (pc - n) - S;
    const int diff = 2 * pc - S + 1;  // nobody can play the last square: it goes to the winner
    return diff > 0 ? diff + 1 : diff < 0 ? diff - 1 : 0;
  }

  // K empties (2..kShallowMax) listed in `sq`, in the order to try them; null window
  // (alpha, alpha+1). No move generator: a square is tried if it touches an opponent disc and
  // flips something. From 5 empties the children sort their squares again (parity has changed),
  // from the same squares in class order (`by_class`, read from 5 empties only).
  template <int K>
  int last(Bits p, Bits o, int alpha, const int* sq, const int* by_class = nullptr) {
    ++stats.at(K).nodes;
    int best = -127;
    for (int i = 0; i < K; ++i) {
      if (!(SG::kNeighbours[sq[i]] & o)) continue;
      const Bits f = flips<N>(p, o, sq[i]);
      if (!f) continue;
      const Bits np = o & ~f, no = p | f | bit(sq[i]);
      int v;
      if constexpr (K == 5) {
        v = -nws_last(np, no, -alpha - 1, K - 1);
      } else if constexpr (K > 5) {
        int rest[K - 1];
        for (int j = 0, k = 0; j < K; ++j)
          if (by_class[j] != sq[i]) rest[k++] = by_class[j];
        v = -nws_last_by_class<K - 1>(np, no, -alpha - 1, rest);
      } else {
        int rest[K - 1];
        for (int j = 0, k = 0; j < K; ++j)
          if (j != i) rest[k++] = sq[j];
        if constexpr (K == 2)
          v = -last1(np, no, rest[0]);
        else
          v = -last<K - 1>(np, no, -alpha - 1, rest);
      }
      if (v > best) {
        if (v > alpha) return v;
        best = v;
      }
    }
    if (best != -127) return best;
    // No move: the opponent plays if it can (it is then its turn with the same empties).
    for (int i = 0; i < K; ++i)
      if ((SG::kNeighbours[sq[i]] & p) && flips<N>(o, p, sq[i])) {
        --stats.at(K).nodes;  // the pass is not a node of its own
        return -last<K>(o, p, -alpha - 1, sq, by_class);
      }
    return final_score<N>(p, o);
  }

  // 5 or more empties given in class order (corners, plain squares, C, X; squares ascending in
  // each): the stability cut-off, then the odd quadrants' squares first, class order kept.
  template <int K>
  int nws_last_by_class(Bits p, Bits o, int alpha, const int* by_class) {
    int bound;
    if (stability_cut(p, o, alpha, K, bound)) {
      ++stats.at(K).nodes;
      return bound;
    }
    const Bits odd = SG::odd_quadrants(~(p | o) & M);
    int sq[K];
    int k = 0;
    for (int j = 0; j < K; ++j)
      if (odd & bit(by_class[j])) sq[k++] = by_class[j];
    for (int j = 0; j < K; ++j)
      if (!(odd & bit(by_class[j]))) sq[k++] = by_class[j];
    return last<K>(p, o, alpha, sq, by_class);
  }

  // Collects the empties and dispatches: squares of odd quadrants first (parity); from 5 empties
  // also corners, plain squares, C and then X squares within each parity group (the class order
  // collected once here, then handed down: a parity split of 5 squares is cheaper than 8 masks).
  // From 4 empties a stability cut-off first (with the board nearly full, the opponent's stable
  // discs often bound the score below alpha: 12 % fewer nodes on FFO #40-42, 44, 47, CPU ratio
  // 0.99).
  int nws_last(Bits p, Bits o, int alpha, int n) {
    const Bits empty = ~(p | o) & M;
    if (n == 0) {
      ++stats.at(0).nodes;
      return final_score<N>(p, o);
    }
    int sq[kShallowMax];
    int k = 0;
    if (n >= 5) {  // the children of last<6> hand their by_class lists down instead
      for (Bits cls : SG::kClass)
        for (Bits e = empty & cls; e; e &= e - 1) sq[k++] = std::countr_zero(e);
      return n == 5 ? nws_last_by_class<5>(p, o, alpha, sq) : nws_last_by_class<6>(p, o, alpha, sq);
    }
    if (n == 4) {  // smaller counts are reached only through last<K>, which does not test it
      int bound;
      if (stability_cut(p, o, alpha, n, bound)) {
        ++stats.at(n).nodes;
        return bound;
      }
    }
    const Bits odd = SG::odd_quadrants(empty);
    for (Bits e = empty & odd; e; e &= e - 1) sq[k++] = std::countr_zero(e);
    for (Bits e = empty & ~odd; e; e &= e - 1) sq[k++] = std::countr_zero(e);
    switch (n) {
      case 1:
        return last1(p, o, sq[0]);
      case 2:
        return last<2>(p, o, alpha, sq);
      case 3:
        return last<3>(p, o, alpha, sq);
      default:
        return last<4>(p, o, alpha, sq);
    }
  }

  int nws(Bits p, Bits o, int alpha, int n) {
    if (n <= kShallowMax) return nws_last(p, o, alpha, n);
    return nws_deep(p, o, alpha, n);
  }

  // The value of a leaf of the ordering searches, for the side to move (the solver's values never
  // depend on it). On 8×8 the pattern evaluation (patterns.hpp) in 1/4 disc; else, or when asked,
  // a cheap heuristic: mobility with corners counted twice, corners held, X squares next to an
  // empty corner, and potential mobility (empties next to the opponent), its weights tuned on FFO
  // node counts (bench/results/othello.md; C squares made the counts worse).
  int heuristic(Bits p, Bits o) const { return heuristic(p, o, legal_moves<N>(p, o)); }
  // The same, given the mover's moves mp (the caller often has them already).
  int heuristic(Bits p, Bits o, Bits mp) const {
    const Bits mo = legal_moves<N>(o, p);
    if constexpr (N == 8)
      if (eval_) return eval_->evaluate(p, o, mp, mo) >> kPatternShift;
    const int mobility =
        popcount(mp) + popcount(mp & SG::kCorners) - popcount(mo) - popcount(mo & SG::kCorners);
    const int corners = popcount(p & SG::kCorners) - popcount(o & SG::kCorners);
    const Bits empty = ~(p | o) & M;
    const Bits bad_x = neighbours(empty & SG::kCorners) & SG::kXSq;
    const int x = popcount(p & bad_x) - popcount(o & bad_x);
    const int potential = popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty);
    return kWeightMobility * mobility + kWeightCorner * corners + kWeightX * x +
           kWeightPotential * potential;
  }
  static constexpr int kPatternShift = 5;  // 1/128 disc to 1/4 disc (tuned, see below)
  static constexpr int kWeightMobility = 16;
  static constexpr int kWeightCorner = 24;
  static constexpr int kWeightX = -11;
  static constexpr int kWeightPotential = -4;
  static constexpr int kWeightShallow = 32;
  static constexpr int kWeightCornerStab = 64;
  // Discs that are corners or run along an edge from an own corner (cheap part of stability).
  static int corner_stability(Bits b) {
    const Bits c = b & SG::kCorners;
    const Bits e = (step<0>(c) | step<1>(c) | step<2>(c) | step<3>(c)) & b;
    return popcount(c) + popcount(e);
  }
  // From this many empties on, a heuristic search joins fastest-first in ordering moves, 3 plies
  // deep at 11 empties growing to 8 plies at 26, 4 plies more at principal-variation nodes
  // (tuned on FFO #40-#47 node counts and CPU time, see bench/results). Smaller boards start at 14:
  // on 6x6 solves of 20 and 23 empties that took 0.82 and 0.85 of the CPU of starting at 11.
  static constexpr int kSortSearchMin = N == 8 ? 11 : 14;
  static constexpr int kSortDepthOffset = 2;
  // With the pattern evaluation, which orders better at a given depth but costs about 8 times
  // the heuristic's time a leaf: from 14 empties, one ply shallower (depth (n - 5) / 3), its value
  // in 1/4 disc. Tuned on FFO #40, 41, 42, 44, 47 (bench/results/othello.md): 66 M search and
  // 15 M ordering nodes against 80 M and 62 M with the heuristic.
  static constexpr int kPatternSortMin = 14;
  static constexpr int kPatternSortDepthOffset = 5;
  static constexpr int kPvSortExtra = 4;
  // At null-window nodes (pattern evaluation, 1/4 disc): a move valued 32 discs above alpha is
  // searched before the others are valued, and values 16 discs below alpha are only bounded.
  // Tuned on FFO #40-#49 (bench/results/othello.md): 3.6 % more nodes, 40 % fewer ordering
  // positions, CPU 0.87-0.90 side by side; the test one ply shallower: 8 % fewer again.
  static constexpr int kClearMargin = 128;
  static constexpr int kOrderFloor = 64;
  static constexpr int kInfinity = 100000;  // beyond any heuristic value

  // Depth-limited negamax on the heuristic: the "shallow search" that orders moves at high depths.
  int shallow(Bits p, Bits o, int depth, int alpha, int beta) {
    ++ordering_nodes;
    if (depth == 0) return heuristic(p, o);
    return shallow_moves(p, o, legal_moves<N>(p, o), depth, alpha, beta);
  }

  // The same at depth >= 1, the node already counted and the mover's moves given (a sorting
  // parent has generated them already).
  int shallow_moves(Bits p, Bits o, Bits moves, int depth, int alpha, int beta) {
    if (!moves) {
      if (!legal_moves<N>(o, p)) {
        const int f = final_score<N>(p, o);
        return f > 0 ? 10000 + f : f < 0 ? -10000 + f : 0;
      }
      return -shallow(o, p, depth, -beta, -alpha);
    }
    if (depth >= 2) return shallow_sorted(p, o, moves, depth, alpha, beta);
    if constexpr (N == 8)
      if (eval_) return shallow_leaves(p, o, moves, beta);
    int best = -100000;
    for (Bits m = moves; m; m &= m - 1) {
      const int sq = std::countr_zero(m);
      const Bits f = flips<N>(p, o, sq);
      const int v = -shallow(o & ~f, p | f | bit(sq), depth - 1, -beta, -std::max(alpha, best));
      if (v > best) {
        best = v;
        if (v >= beta) break;
      }
    }
    return best;
  }

  // Depth 1 with the pattern evaluation: the children are evaluated from this node's instance
  // indices and their moves' changed squares (pattern_children.hpp); the values are heuristic()'s.
  int shallow_leaves(Bits p, Bits o, Bits moves, int beta) {
    patterns::ChildEvaluator children(*eval_, p, o);
    return evaluate_leaves(children, p, o, moves, beta);
  }
  // The depth-1 loop: each child of (p, o) valued by `leaves` (a ChildEvaluator of this node, or
  // a GrandchildEvaluator of the node above that has entered this node's move).
  template <typename LeafEvaluator>
  int evaluate_leaves(LeafEvaluator& leaves, Bits p, Bits o, Bits moves, int beta) {
    int best = -100000;
    for (Bits m = moves; m; m &= m - 1) {
      const int sq = std::countr_zero(m);
      const Bits f = flips<N>(p, o, sq);
      const Bits np = o & ~f, no = p | f | bit(sq);
      ++ordering_nodes;
      const int v =
          -(leaves.evaluate(sq, f, np, no, legal_moves<N>(np, no), legal_moves<N>(no, np)) >>
            kPatternShift);
      if (v > best) {
        best = v;
        if (v >= beta) break;
      }
    }
    return best;
  }

  // The ordering search's own interior nodes, fastest-first: cut-offs come sooner. Each child's
  // moves, generated to sort, are handed down to it. Two plies above the pattern evaluation's
  // leaves, the leaves are read from this node's indices (pattern_children.hpp).
  int shallow_sorted(Bits p, Bits o, Bits moves, int depth, int alpha, int beta) {
    MoveItem list[32];
    int count = 0;
    for (Bits m = moves; m; m &= m - 1) {
      MoveItem& it = list[count++];
      it.sq = std::countr_zero(m);
      it.f = flips<N>(p, o, it.sq);
      it.replies = legal_moves<N>(o & ~it.f, p | it.f | bit(it.sq));
      it.score = -popcount(it.replies) - popcount(it.replies & SG::kCorners);
    }
    if constexpr (N == 8)
      if (eval_ && depth == 2) return shallow_above_leaves(p, o, list, count, alpha, beta);
    int best = -100000;
    for (int i = 0; i < count; ++i) {
      pick_best(list, i, count);
      const MoveItem& it = list[i];
      const Bits np = o & ~it.f, no = p | it.f | bit(it.sq);
      ++ordering_nodes;
      const int v = -shallow_moves(np, no, it.replies, depth - 1, -beta, -std::max(alpha, best));
      if (v > best) {
        best = v;
        if (v >= beta) break;
      }
    }
    return best;
  }

  // shallow_sorted at depth 2 with the pattern evaluation: the same search, each child's
  // children evaluated from this node's indices (a child that must pass goes the plain way).
  int shallow_above_leaves(Bits p, Bits o, MoveItem* list, int count, int alpha, int beta) {
    patterns::GrandchildEvaluator below(*eval_, p, o);
    int best = -100000;
    for (int i = 0; i < count; ++i) {
      pick_best(list, i, count);
      const MoveItem& it = list[i];
      const Bits np = o & ~it.f, no = p | it.f | bit(it.sq);
      ++ordering_nodes;
      const int child_beta = -std::max(alpha, best);
      int v;
      if (it.replies) {
        below.enter(it.sq, it.f);
        v = -evaluate_leaves(below, np, no, it.replies, child_beta);
        below.leave();
      } else {
        v = -shallow_moves(np, no, it.replies, 1, -beta, child_beta);
      }
      if (v > best) {
        best = v;
        if (v >= beta) break;
      }
    }
    return best;
  }

  // The moves of p with their flips, in square order, unscored.
  static int collect_moves(Bits p, Bits o, Bits moves, MoveItem* list) {
    int count = 0;
    for (Bits m = moves; m; m &= m - 1) {
      MoveItem& it = list[count++];
      it.sq = std::countr_zero(m);
      it.f = flips<N>(p, o, it.sq);
    }
    return count;
  }

  // Scores moves for ordering: the table's move first; then fastest-first (fewest replies for the
  // opponent, corners counted twice), fewer opponent-adjacent empties, parity as a tie-break; deep
  // in the tree a heuristic search on top. `extra` plies deepen that search (principal-variation
  // nodes, few and decisive).
  void score_moves(Bits p, Bits o, MoveItem* list, int count, int tt_move, int n, int extra = 0) {
    cheap_scores(p, o, list, count, tt_move);
    const int depth = ordering_depth(n);
    if (depth > 0) add_shallow_scores(p, o, list, count, n, depth + extra, -kInfinity);
  }

  // The ordering search's depth at n empties: 0 (none) below the minimum.
  int ordering_depth(int n) const {
    const int sort_min = eval_ ? kPatternSortMin : kSortSearchMin;
    const int sort_offset = eval_ ? kPatternSortDepthOffset : kSortDepthOffset;
    return n >= sort_min ? std::min(8, (n - sort_offset) / 3) : 0;
  }

  // The fastest-first part of the scores (the table's move on top).
  void cheap_scores(Bits p, Bits o, MoveItem* list, int count, int tt_move) {
    const Bits empty = ~(p | o) & M;
    const Bits odd = SG::odd_quadrants(empty);
    for (int i = 0; i < count; ++i) {
      MoveItem& it = list[i];
      const int sq = it.sq;
      if (sq == tt_move) {
        it.score = 1 << 30;
        continue;
      }
      const Bits np = o & ~it.f, no = p | it.f | bit(sq);
      const Bits replies = legal_moves<N>(np, no);
      const Bits new_empty = empty & ~bit(sq);
      it.score = -(popcount(replies) + popcount(replies & SG::kCorners)) * 256 -
                 popcount(neighbours(no) & new_empty) * 16 + ((odd & bit(sq)) ? 8 : 0) +
                 ((SG::kCorners & bit(sq)) ? 32 : 0) + corner_stability(no) * kWeightCornerStab;
    }
  }

  // Adds the heuristic search's value to each move's score, moves taken in the order of their
  // cheap scores; only a move that may beat the best so far (and `floor`) gets an exact value,
  // the others an upper bound (cheaper, and enough to rank them below it). The positions spent
  // are counted at n empties.
  void add_shallow_scores(Bits p, Bits o, MoveItem* list, int count, int n, int depth, int floor) {
    const std::uint64_t before = ordering_nodes;
    int idx[32];
    for (int i = 0; i < count; ++i) {
      int j = i;
      for (; j > 0 && list[idx[j - 1]].score < list[i].score; --j) idx[j] = idx[j - 1];
      idx[j] = i;
    }
    int best = floor;
    for (int k = 0; k < count; ++k) {
      MoveItem& it = list[idx[k]];
      if (it.score == 1 << 30) continue;  // the table's move is tried first anyway
      const int v =
          std::max(-shallow(o & ~it.f, p | it.f | bit(it.sq), depth - 1, -kInfinity, -best), floor);
      best = std::max(best, v);
      it.score += v * kWeightShallow;
    }
    stats.at(n).ordering_nodes += ordering_nodes - before;
  }

  // At a null-window node with the pattern evaluation: the move of the best cheap score, if the
  // ordering search finds it far above alpha (kClearMargin), is searched before the others are
  // valued (it refutes 99.9 % of the time on FFO, and their ordering searches are then saved);
  // its index, else -1.
  int clear_refutation(Bits p, Bits o, int alpha, int n, const MoveItem* list, int count,
                       int depth) {
    if (!eval_) return -1;
    int k = 0;
    for (int j = 1; j < count; ++j)
      if (list[j].score > list[k].score) k = j;
    const int threshold = 4 * alpha + kClearMargin;  // in 1/4 disc, as the evaluation
    const std::uint64_t before = ordering_nodes;
    const MoveItem& it = list[k];
    // One ply shallower than the ordering search: the test only needs the side of a wide margin.
    const int v = -shallow(o & ~it.f, p | it.f | bit(it.sq), std::max(depth - 2, 0), -threshold,
                           -threshold + 1);
    stats.at(n).ordering_nodes += ordering_nodes - before;
    return v >= threshold ? k : -1;
  }

  // Near the start many positions are symmetric, and two moves leading to mirror images have one
  // value: keep only the first of each such set (the list is then shorter, never different).
  static int drop_symmetric_twins(Bits p, Bits o, MoveItem* list, int count) {
    PosKey seen[32];
    int kept = 0;
    for (int i = 0; i < count; ++i) {
      const PosKey c = canonical<N>(o & ~list[i].f, p | list[i].f | bit(list[i].sq));
      bool twin = false;
      for (int j = 0; j < kept && !twin; ++j) twin = seen[j] == c;
      if (twin) continue;
      seen[kept] = c;
      list[kept++] = list[i];
    }
    return kept;
  }

  static void pick_best(MoveItem* list, int i, int count) {
    int b = i;
    for (int j = i + 1; j < count; ++j)
      if (list[j].score > list[b].score) b = j;
    if (b != i) std::swap(list[i], list[b]);
  }

  // Upper bound from the opponent's stable discs; returns true (and the bound) to cut.
  bool stability_cut(Bits p, Bits o, int alpha, int n, int& bound) {
    if (alpha < 2 * n - 2) return false;
    EmptiesCounts& c = stats.at(n);
    ++c.stability_tries;
    bound = S - 2 * popcount(Stability<N>::stable(o, p));
    if (bound > alpha) return false;
    ++c.stability_cuts;
    return true;
  }

  // The table of a node of n empties: this thread's small one just above the last-empties code,
  // else the shared one. Both are prefetched: the small one (1.5 MiB) outgrows the core's L2.
  static bool in_local(int n) { return n <= Local::kMaxEmpties; }
  bool probe(Bits p, Bits o, int n, TTEntry& e) const {
    return in_local(n) ? local_.probe(p, o, n, e) : tt_.probe(p, o, e);
  }
  void store(Bits p, Bits o, int n, int lower, int upper, int move) {
    if (in_local(n))
      local_.store(p, o, n, lower, upper, move);
    else
      tt_.store(p, o, n, lower, upper, move);
  }
  void prefetch(Bits p, Bits o, int n) const {
    if (in_local(n))
      local_.prefetch(p, o, n);
    else
      tt_.prefetch(p, o);
  }

  // Asks the cache for the buckets of the children (n - 1 empties), so that their misses overlap.
  void prefetch_children(Bits p, Bits o, int n, const MoveItem* list, int count) const {
    for (int i = 0; i < count; ++i)
      prefetch(o & ~list[i].f, p | list[i].f | bit(list[i].sq), n - 1);
  }

  // Enhanced transposition cut-off: a child already known to refute is taken at once. The
  // children's buckets are fetched first, so their cache misses overlap.
  bool etc_cut(Bits p, Bits o, int alpha, int n, const MoveItem* list, int count, int& bound) {
    prefetch_children(p, o, n, list, count);
    for (int i = 0; i < count; ++i) {
      TTEntry ce;
      const Bits np = o & ~list[i].f, no = p | list[i].f | bit(list[i].sq);
      if (probe(np, no, n - 1, ce) && -ce.upper > alpha) {
        store(p, o, n, -ce.upper, 127, list[i].sq);
        bound = -ce.upper;
        return true;
      }
    }
    return false;
  }

  // The null-window loop over a node's moves (fail-soft): the table's move first, before any
  // ordering work, as it often refutes on its own; then a clear refutation, if the ordering finds
  // one, before the others are valued; then the rest in their scored order. `tried`: the moves
  // searched, the refuting one included (0 when the node was shared with other threads).
  int search_moves(Bits p, Bits o, int alpha, int n, MoveItem* list, int count, int tt_move,
                   int& best_move, int& tried) {
    int best = -127, first = 0;
    // Searches list[first] ahead of the others' ordering; true when it refutes.
    auto search_first = [&](int i) {
      std::swap(list[first], list[i]);
      const MoveItem& it = list[first];
      const int v = -nws(o & ~it.f, p | it.f | bit(it.sq), -alpha - 1, n - 1);
      if (v > best) {
        best = v;
        best_move = it.sq;
      }
      tried = ++first;
      return best > alpha;
    };
    for (int i = 0; i < count && tt_move >= 0; ++i)
      if (list[i].sq == tt_move) {
        if (search_first(i)) return best;
        break;
      }
    if (count - first > 1) {  // one move left needs no order
      cheap_scores(p, o, list + first, count - first, -1);
      if (const int depth = ordering_depth(n); depth > 0) {
        const int clear = clear_refutation(p, o, alpha, n, list + first, count - first, depth);
        if (clear >= 0 && search_first(first + clear)) return best;
        // Below the floor a move's value only ranks it among the losing ones: a bound will do.
        const int floor = eval_ ? 4 * alpha - kOrderFloor : -kInfinity;
        add_shallow_scores(p, o, list + first, count - first, n, depth, floor);
      }
    }
    for (int i = first; i < count; ++i) {
      if (pool_ && i > 0 && count - i > 1 && n >= kSplitMin && pool_->someone_idle()) {
        tried = 0;
        return split_moves(p, o, alpha, n, list + i, count - i, best, best_move);
      }
      pick_best(list, i, count);
      const MoveItem& it = list[i];
      tried = i + 1;
      const int v = -nws(o & ~it.f, p | it.f | bit(it.sq), -alpha - 1, n - 1);
      if (v > best) {
        best = v;
        best_move = it.sq;
        if (v > alpha) break;
      }
    }
    return best;
  }

  int nws_deep(Bits p, Bits o, int alpha, int n) {
    if (split_ && split_->cut_here_or_above()) throw Aborted{};
    prefetch(p, o, n);  // the miss overlaps the stability test
    int bound;
    EmptiesCounts& c = stats.at(n);
    if (stability_cut(p, o, alpha, n, bound)) {
      ++c.nodes;
      return bound;
    }
    TTEntry e;
    int tt_move = -1;
    if (probe(p, o, n, e)) {
      if (e.lower > alpha || e.upper <= alpha) {
        ++c.table_cuts;
        return e.lower > alpha ? e.lower : e.upper;
      }
      tt_move = e.move;
    }
    const Bits moves = legal_moves<N>(p, o);
    if (!moves) {
      if (!legal_moves<N>(o, p)) {
        ++c.nodes;
        return final_score<N>(p, o);
      }
      return -nws_deep(o, p, -alpha - 1, n);
    }
    ++c.nodes;
    MoveItem list[32];
    int count = collect_moves(p, o, moves, list);
    if (S - n <= kSymmetryPlies) count = drop_symmetric_twins(p, o, list, count);
    if (n >= kEtcMin && etc_cut(p, o, alpha, n, list, count, bound)) {
      ++c.etc_cuts;
      return bound;
    }
    int best_move = -1, tried = 0;
    const int best = search_moves(p, o, alpha, n, list, count, tt_move, best_move, tried);
    ++c.searched;
    if (best > alpha) {
      ++c.refuted;
      c.refuted_first += tried == 1;
      store(p, o, n, best, 127, best_move);
    } else {
      store(p, o, n, -127, best, best_move);
    }
    return best;
  }

  // ---- principal-variation search ----
  // The root's search: with the pattern evaluation and the whole score range asked for, first a
  // window of kAspiration discs either side of the evaluation's guess, widened on the failing
  // side to the asked bound when the score falls outside it (fail-soft, so the re-search starts
  // from the bound found). Otherwise pvs itself.
  int root(Bits p, Bits o, int alpha, int beta, int n, int* best_move_out) {
    if (!evaluator_guess_ok(n, alpha, beta)) return pvs(p, o, alpha, beta, n, best_move_out);
    const int depth = std::min(8, (n - kPatternSortDepthOffset) / 3) + kGuessExtra;
    const std::uint64_t before = ordering_nodes;
    const int v = std::clamp(shallow(p, o, depth, -100000, 100000), -4 * S, 4 * S);
    stats.at(n).ordering_nodes += ordering_nodes - before;
    const int guess = 2 * static_cast<int>(std::lround(v / 8.0));  // 1/4 disc to an even score
    int a = std::max(alpha, guess - kAspiration - 1), b = std::min(beta, guess + kAspiration + 1);
    for (;;) {
      const int r = pvs(p, o, a, b, n, best_move_out);
      if (r <= a && a > alpha)
        a = alpha, b = r + 1;
      else if (r >= b && b < beta)
        b = beta, a = r - 1;
      else
        return r;
    }
  }
  // Tuned on FFO #40-#47 (bench/results/othello.md): 2 plies deeper than an ordering search at
  // that depth, 6 discs either side; 2-6 % fewer nodes, all positions counted.
  static constexpr int kGuessExtra = 2;
  static constexpr int kAspiration = 6;
  bool evaluator_guess_ok(int n, int alpha, int beta) const {
    return eval_ && n >= kPatternSortMin && alpha < -S && beta > S;
  }

  int pvs(Bits p, Bits o, int alpha, int beta, int n, int* best_move_out = nullptr) {
    // A null window below the root is a null-window node: the table's and the stability cut-offs
    // and the last-empties code apply, and it owes no principal-variation ordering.
    if (beta - alpha == 1 && !best_move_out) return nws(p, o, alpha, n);
    if (n == 0) {
      ++stats.at(0).nodes;
      return final_score<N>(p, o);
    }
    const Bits moves = legal_moves<N>(p, o);
    if (!moves) {
      if (!legal_moves<N>(o, p)) {
        ++stats.at(n).nodes;
        if (best_move_out) *best_move_out = kPass;
        return final_score<N>(p, o);
      }
      if (best_move_out) *best_move_out = kPass;
      return -pvs(o, p, -beta, -alpha, n);
    }
    ++stats.at(n).nodes;
    TTEntry e;
    int tt_move = -1;
    if (tt_.probe(p, o, e)) {
      if (!best_move_out) {
        if (e.lower >= beta) return e.lower;
        if (e.upper <= alpha) return e.upper;
        if (e.lower == e.upper) return e.lower;
      }
      tt_move = e.move;
    }
    MoveItem list[32];
    int count = collect_moves(p, o, moves, list);
    if (S - n <= kSymmetryPlies) count = drop_symmetric_twins(p, o, list, count);
    // Deeper ordering only where the window is open: a window of one score is a test, not a PV.
    score_moves(p, o, list, count, tt_move, n, beta - alpha > 2 ? kPvSortExtra : 0);
    for (int i = 0; i < count; ++i) pick_best(list, i, count);  // fully sorted: helpers share it

    const int alpha0 = alpha;
    int best = -127, best_move = -1;
    {
      const MoveItem& it = list[0];
      best = -pvs(o & ~it.f, p | it.f | bit(it.sq), -beta, -alpha, n - 1);
      best_move = it.sq;
      if (best > alpha) alpha = best;
    }
    for (int i = 1; i < count && best < beta; ++i) {
      const MoveItem& it = list[i];
      const Bits np = o & ~it.f, no = p | it.f | bit(it.sq);
      int v = -nws(np, no, -alpha - 1, n - 1);
      if (v > alpha && v < beta) v = -pvs(np, no, -beta, -(v - 1), n - 1);
      if (v > best) {
        best = v;
        best_move = it.sq;
        if (v > alpha) alpha = v;
      }
    }
    if (best >= beta)
      tt_.store(p, o, n, best, 127, best_move);
    else if (best <= alpha0)
      tt_.store(p, o, n, -127, best, best_move);
    else
      tt_.store(p, o, n, best, best, best_move);
    if (best_move_out) *best_move_out = best_move;
    return best;
  }

  // A helper thread's life: work at whatever split point is open until the solve ends.
  void help() {
    while (Point* sp = pool_->wait_for_work(nullptr)) {
      work_at(*sp);
      pool_->leave(*sp);
    }
  }

 private:
  // The moves of a null-window node after its first (which failed to refute), shared with idle
  // threads: this thread works at them too, then helps below until the others are done. The
  // result is the sequential loop's: a refutation (> alpha) or, every move searched, the best.
  int split_moves(Bits p, Bits o, int alpha, int n, MoveItem* list, int count, int best,
                  int& best_move) {
    for (int i = 0; i < count; ++i) pick_best(list, i, count);
    Point sp;
    sp.p = p, sp.o = o, sp.alpha = alpha, sp.n = n, sp.moves = list, sp.count = count;
    sp.parent = split_;
    sp.best = best, sp.best_move = best_move;
    pool_->open(sp);
    work_at(sp);
    pool_->close(sp);
    while (Point* below = pool_->wait_for_work(&sp)) {
      work_at(*below);
      pool_->leave(*below);
    }
    if (sp.parent && sp.parent->cut_here_or_above()) throw Aborted{};  // nobody needs the value
    best_move = sp.best_move;
    return sp.best;
  }

  // Takes sp's moves one by one until none is left or one refutes; a search aborted by a cut
  // here or above stops it.
  void work_at(Point& sp) {
    const Point* const outer = split_;
    split_ = &sp;
    for (;;) {
      const int i = sp.next.fetch_add(1, std::memory_order_relaxed);
      if (i >= sp.count || sp.cut.load(std::memory_order_relaxed)) break;
      const MoveItem& it = sp.moves[i];
      int v;
      try {
        v = -nws(sp.o & ~it.f, sp.p | it.f | bit(it.sq), -sp.alpha - 1, sp.n - 1);
      } catch (const Aborted&) {
        break;
      }
      pool_->report(sp, v, it.sq);
      if (v > sp.alpha) break;
    }
    split_ = outer;
  }

  struct Aborted {};  // thrown out of a search whose split point (or one above) was cut
  // Nodes of kShallowMax + 1 .. kLocalMax empties use the thread's own small table.
  using Local = LocalTable<kShallowMax + 1, kLocalMax, kLocalBits>;
  static_assert(kEtcMin - 1 >= Local::kMinEmpties, "ETC's children must be in a table's range");
  TranspositionTable& tt_;
  Local local_;
  Pool* pool_;
  const patterns::PatternWeights* eval_;  // the ordering's evaluation; null: heuristic
  const Point* split_ = nullptr;          // the split point this thread now works for
};

// The searcher of the calling thread and, with threads > 1, helper threads with their own
// searchers, all sharing one table; the helpers stop with it.
template <int N>
class SearchTeam {
 public:
  SearchTeam(TranspositionTable& tt, unsigned threads, const patterns::PatternWeights* eval)
      : main_(tt, threads > 1 ? &pool_ : nullptr, eval) {
    for (unsigned h = 1; h < threads; ++h) {
      helpers_.push_back(std::make_unique<Searcher<N>>(tt, &pool_, eval));
      threads_.emplace_back(&Searcher<N>::help, helpers_.back().get());
    }
  }
  ~SearchTeam() { stop(); }
  SearchTeam(const SearchTeam&) = delete;
  SearchTeam& operator=(const SearchTeam&) = delete;
  Searcher<N>& main() { return main_; }
  // Ends the helpers and adds their nodes to the main searcher's.
  void stop() {
    if (threads_.empty()) return;
    pool_.quit();
    for (auto& t : threads_) t.join();
    threads_.clear();
    for (auto& h : helpers_) {
      main_.stats += h->stats;
      main_.ordering_nodes += h->ordering_nodes;
    }
  }

 private:
  Pool pool_;
  Searcher<N> main_;
  std::vector<std::unique_ptr<Searcher<N>>> helpers_;
  std::vector<std::thread> threads_;
};

// The weights the ordering searches use, or null for the heuristic.
template <int N>
const patterns::PatternWeights* ordering_weights(Ordering ordering,
                                                 const patterns::PatternWeights* weights) {
  if (N != 8 || ordering != Ordering::kPatterns) return nullptr;
  return weights ? weights : &patterns::default_pattern_weights();
}

template <int N>
void check_position(Bits p, Bits o) {
  if (p & o) throw std::invalid_argument("othello: a square holds discs of both colours");
  if ((p | o) & ~Geometry<N>::kMask)
    throw std::invalid_argument("othello: discs outside the " + std::to_string(N) + "x" +
                                std::to_string(N) + " board");
}

// Follows exact values down the tree: at each position, a move whose child has exactly the
// negated score (tested with a minimal window, cheap with a warm table).
template <int N>
std::vector<int> principal_variation(Searcher<N>& s, TranspositionTable& tt, Bits p, Bits o,
                                     int score) {
  std::vector<int> pv;
  for (;;) {
    const int n = Geometry<N>::kSquares - popcount(p | o);
    Bits moves = legal_moves<N>(p, o);
    if (!moves) {
      if (!legal_moves<N>(o, p)) break;
      pv.push_back(kPass);
      std::swap(p, o);
      score = -score;
      continue;
    }
    TTEntry e;
    int first = -1;
    if (tt.probe(p, o, e) && e.move >= 0 && (moves & bit(e.move))) first = e.move;
    int chosen = -1;
    for (int pass = 0; pass < 2 && chosen < 0; ++pass)
      for (Bits m = moves; m; m &= m - 1) {
        const int sq = std::countr_zero(m);
        if ((pass == 0) != (sq == first)) continue;
        const Bits f = flips<N>(p, o, sq);
        const Bits np = o & ~f, no = p | f | bit(sq);
        const int v = -s.pvs(np, no, -score - 1, -score + 1, n - 1);
        if (v == score) {
          chosen = sq;
          break;
        }
      }
    if (chosen < 0) break;  // cannot happen for an exact score; stop rather than loop
    pv.push_back(chosen);
    const Bits f = flips<N>(p, o, chosen);
    const Bits np = o & ~f, no = p | f | bit(chosen);
    p = np;
    o = no;
    score = -score;
  }
  return pv;
}

}  // namespace

template <int N>
SolveResult solve(Bits p, Bits o, const SolveOptions& options) {
  check_position<N>(p, o);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  constexpr int S = N * N;
  TranspositionTable tt(options.tt_bits);
  SearchTeam<N> team(tt, options.threads, ordering_weights<N>(options.ordering, options.weights));
  Searcher<N>& s = team.main();
  SolveResult r;
  r.empties = S - popcount(p | o);
  const int alpha = std::clamp(options.alpha, -S, S), beta = std::clamp(options.beta, -S, S);
  if (alpha > beta) throw std::invalid_argument("othello: empty search window (alpha > beta)");
  // Widen by one so scores on the window's edges are still exact (scores are even).
  const int a = alpha == -S ? -S - 1 : alpha - 1, b = beta == S ? S + 1 : beta + 1;
  int best_move = -1;
  r.score = s.root(p, o, a, b, r.empties, &best_move);
  r.outside = r.score <= a ? -1 : r.score >= b ? 1 : 0;
  r.best_move = best_move;
  if (options.principal_variation && r.exact()) r.pv = principal_variation<N>(s, tt, p, o, r.score);
  team.stop();
  r.stats = s.stats;
  r.nodes = r.stats.nodes();
  r.ordering_nodes = s.ordering_nodes;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  return r;
}

template <int N>
struct EndgameSolver<N>::Impl {
  Impl(int bits, const patterns::PatternWeights* eval) : tt(bits), searcher(tt, nullptr, eval) {}
  TranspositionTable tt;
  Searcher<N> searcher;
};

template <int N>
EndgameSolver<N>::EndgameSolver(int tt_bits, Ordering ordering,
                                const patterns::PatternWeights* weights)
    : impl_(std::make_unique<Impl>(tt_bits, ordering_weights<N>(ordering, weights))) {}
template <int N>
EndgameSolver<N>::~EndgameSolver() = default;

template <int N>
SolveResult EndgameSolver<N>::solve(Bits p, Bits o, int alpha, int beta) {
  constexpr int S = N * N;
  alpha = std::clamp(alpha, -S, S);
  beta = std::clamp(beta, -S, S);
  if (alpha > beta) throw std::invalid_argument("othello: empty search window (alpha > beta)");
  // Widen by one so scores on the window's edges are still exact (scores are even).
  return search(p, o, alpha == -S ? -S - 1 : alpha - 1, beta == S ? S + 1 : beta + 1);
}

template <int N>
SolveResult EndgameSolver<N>::exceeds(Bits p, Bits o, int threshold) {
  return search(p, o, threshold, threshold + 1);
}

// The principal-variation search in the open window (a, b) on the kept table.
template <int N>
SolveResult EndgameSolver<N>::search(Bits p, Bits o, int a, int b) {
  check_position<N>(p, o);
  SolveResult r;
  r.empties = N * N - popcount(p | o);
  impl_->searcher.stats = {};  // the counts of this search alone (the table stays)
  int best_move = -1;
  r.score = impl_->searcher.pvs(p, o, a, b, r.empties, &best_move);
  r.outside = r.score <= a ? -1 : r.score >= b ? 1 : 0;
  r.best_move = best_move;
  r.stats = impl_->searcher.stats;
  r.nodes = r.stats.nodes();
  return r;
}

template <int N>
std::vector<std::pair<int, int>> solve_each_move(Bits p, Bits o, const SolveOptions& options) {
  check_position<N>(p, o);
  constexpr int S = N * N;
  TranspositionTable tt(options.tt_bits);  // shared by the moves: their subtrees overlap
  SearchTeam<N> team(tt, options.threads, ordering_weights<N>(options.ordering, options.weights));
  Searcher<N>& s = team.main();
  std::vector<std::pair<int, int>> out;
  const int n = S - popcount(p | o);
  for (Bits m = legal_moves<N>(p, o); m; m &= m - 1) {
    const int sq = std::countr_zero(m);
    const Bits f = flips<N>(p, o, sq);
    out.emplace_back(sq, -s.pvs(o & ~f, p | f | bit(sq), -S - 1, S + 1, n - 1));
  }
  return out;
}

template <int N>
int minimax(Bits p, Bits o, std::uint64_t* nodes) {
  if (nodes) ++*nodes;
  Bits moves = legal_moves<N>(p, o);
  if (!moves) {
    if (!legal_moves<N>(o, p)) return final_score<N>(p, o);
    return -minimax<N>(o, p, nodes);
  }
  int best = -1000;
  for (; moves; moves &= moves - 1) {
    const int sq = std::countr_zero(moves);
    const Bits f = flips<N>(p, o, sq);
    best = std::max(best, -minimax<N>(o & ~f, p | f | bit(sq), nodes));
  }
  return best;
}

#define ZERMELO_OTHELLO_INSTANTIATE(N)                                                           \
  template SolveResult solve<N>(Bits, Bits, const SolveOptions&);                                \
  template std::vector<std::pair<int, int>> solve_each_move<N>(Bits, Bits, const SolveOptions&); \
  template int minimax<N>(Bits, Bits, std::uint64_t*);                                           \
  template class EndgameSolver<N>;
ZERMELO_OTHELLO_INSTANTIATE(4)
ZERMELO_OTHELLO_INSTANTIATE(6)
ZERMELO_OTHELLO_INSTANTIATE(8)
#undef ZERMELO_OTHELLO_INSTANTIATE

}  // namespace zermelo::othello
