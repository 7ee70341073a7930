// Weak solving by proof trees (spec steps 2-5, Takizawa 2023) and the independent proof checker.
//
// Why: an exact solve of a whole game is out of reach on 8×8, but a proof that the start's value
// lies within a bound only needs, at every node where the bound's owner moves (an OR node), one
// move that keeps the bound, and at the other nodes (AND) every move. The prover expands the tree
// from a root down to a layer of `leaf_empties`, orders moves by predicted values (eval.hpp),
// selects for each OR node the child predicted best and for each AND node all children, solves the
// selected leaves exactly with the endgame solver in batches, and re-selects where a prediction
// failed, until the root is proved or refuted. Proving value >= v and value <= v gives the value:
// the paper does it with v = 0 (the window (-1, +1) around a draw).
//
// A proof is one checksummed run file (run_file.hpp) of 24-byte records: each node (a canonical
// position under the 8 board symmetries, a goal "value >= b" or "value <= b" for the side to move,
// and whether it is a leaf to re-solve or an expanded node) followed by its edges (move, child
// node). `check_proof` replays it with the rules and the endgame solver alone.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/games/othello/prediction.hpp"

namespace zermelo::othello {

enum class Goal : std::uint8_t {
  kAtLeast = 0,  // value >= bound for the side to move (an OR node: one good move suffices)
  kAtMost = 1,   // value <= bound (an AND node: every move must keep it)
};

// The on-disk record. A node record is followed by its edge records.
struct ProofRecord {
  static constexpr std::uint8_t kRoot = 'R', kNode = 'N', kEdge = 'E';
  static constexpr std::uint8_t kLeaf = 0, kExpanded = 1;
  std::uint64_t p = 0;    // node: canonical discs of the side to move; edge: child node index
  std::uint64_t o = 0;    // node: canonical discs of the opponent; edge: 0
  std::uint8_t tag = 0;   // kRoot, kNode or kEdge
  std::uint8_t size = 0;  // board size, every record
  std::uint8_t kind = 0;  // node: kLeaf (re-solve it) or kExpanded (edges follow)
  std::uint8_t goal = 0;  // node: Goal
  std::int8_t bound = 0;  // node: the bound b of the goal
  std::int8_t move = 0;   // edge: the square played, or -1 for a pass
  std::uint8_t pad[2] = {0, 0};
};
static_assert(sizeof(ProofRecord) == 24);
inline constexpr const char* kProofRecordType = "othello.proof.v1";

// How the prover finds the proof.
enum class ProofSearch : std::uint8_t {
  // The paper's pipeline: an OR node follows its best predicted move; the selected leaves are
  // solved in batches (in parallel, independent jobs), and a refuted prediction re-selects.
  kRounds,
  // The endgame solver leads: an OR node's move is the one its null-window search at the bound
  // finds, on one table shared down the whole proof (so the root's own search warms it for every
  // node below); an AND node takes every move. No failed predictions, one thread.
  kSolver,
};

struct WeakSolveOptions {
  int leaf_empties = 20;  // positions with at most this many empties are solved exactly
  int predict_depth = 4;  // plies of the shallow search that orders moves
  Predictor predictor = Predictor::kPatterns;  // its evaluation (linear on boards other than 8×8)
  ProofSearch search = ProofSearch::kRounds;
  std::optional<int> value;  // prove exactly this value (both bounds); unset: find it (guess from
                             // the prediction, then move the guess by 2 until both bounds hold)
  unsigned threads = 1;      // leaf solves of a batch run on this many threads
  int tt_bits = 20;          // each leaf solver's table
  std::string proof_path;    // write the proof here if not empty
  // Every exact solve is logged here as it is answered, and a run again of the same root replays
  // the log instead of solving (a killed search resumes); the log is removed once the proof is
  // written. Empty: `proof_path` + ".journal", or no journal when there is no proof file either.
  std::string journal_path;
  // 0: no limit. Else the search stops, throwing WeakSolveStopped with its journal kept, once it
  // has run this many solves the journal did not answer: a kill at a chosen point, for the tests
  // of the resume and for runs in segments of a known size.
  std::uint64_t stop_after_solves = 0;
  // The solver-led search reports a solve still running after this long, and again as often
  // (the progress callback gets `solving_empties` and `solving_seconds`).
  int heartbeat_ms = 10000;
};

// Thrown when `stop_after_solves` is reached; the same options run again resume.
struct WeakSolveStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct WeakSolveProgress {
  int round = 0;
  Goal goal = Goal::kAtLeast;
  int bound = 0;
  std::uint64_t leaves_solved = 0;
  std::uint64_t batch = 0;     // leaves selected in this round
  std::uint64_t resumed = 0;   // of the solves, answered from the journal
  int solving_empties = 0;     // a heartbeat: a solve of this many empties is running...
  double solving_seconds = 0;  // ...for this long
  double seconds = 0;
};

struct WeakSolveResult {
  int value = 0;                         // the root's proved value for its side to move
  std::uint64_t internal_nodes = 0;      // of the written proof (expanded nodes, passes included)
  std::uint64_t leaves = 0;              // of the written proof (solved exactly or finished games)
  std::uint64_t leaf_solves = 0;         // exact (window) solves run, over every attempt
  std::uint64_t leaf_nodes = 0;          // endgame solver nodes of those solves
  std::uint64_t interior_solves = 0;     // kSolver: null-window solves of OR nodes above the leaves
  std::uint64_t interior_nodes = 0;      // endgame solver nodes of those solves
  std::uint64_t resumed_solves = 0;      // of the solves above, answered from the journal
  std::string journal_path;              // the journal used ("" for none)
  std::uint64_t rounds = 0;              // select/solve rounds, over every attempt
  std::uint64_t failed_predictions = 0;  // OR nodes whose first predicted move did not hold
  std::vector<std::pair<Goal, int>> attempts;  // every root goal tried, in order
  std::vector<bool> attempt_proved;
  double seconds = 0;  // this run's (a resumed search: the solves replayed cost next to none)
  double cpu_seconds = 0;
};

// Weakly solves (p to move, o) on the N×N board: proves value >= v and value <= v.
template <int N>
WeakSolveResult weak_solve(Bits p, Bits o, const WeakSolveOptions& options,
                           const std::function<void(const WeakSolveProgress&)>& progress = {});

struct ProofRoot {
  Bits p = 0, o = 0;  // canonical
  Goal goal = Goal::kAtLeast;
  int bound = 0;
  bool is_start = false;  // the canonical start position of the board
};

struct ProofCheck {
  bool ok = false;
  std::string error;  // names the node (index, board, goal) and what is wrong
  int size = 0;
  std::vector<ProofRoot> roots;
  std::uint64_t nodes = 0, expanded = 0, leaves = 0, edges = 0, leaf_solver_nodes = 0;
  std::uint64_t unreachable = 0;  // nodes no root leads to (allowed, counted)
  double seconds = 0;
};

// Replays a proof file with the rules alone: every node's position is canonical and legal, every
// edge's child is the position its move leads to (canonicalised) with the opposite goal and a
// bound at least as strong, an AND node has an edge for each legal move (a pass when it has none),
// an OR node exactly one, and every leaf's bound is re-solved by the endgame solver. Never throws
// for a bad proof (the result says what is wrong); throws RunFileError for a corrupt file.
ProofCheck check_proof(const std::string& path, int tt_bits = 20);

// A perfect player: follows the OR moves of a proof's "value >= b" nodes (the proof's goal for the
// side the player takes), then, from the proof's leaves on, the endgame solver's best move. Against
// any opponent it keeps the proved bound: every opponent reply is in the proof (AND nodes hold all
// moves) until a leaf, and from there the solver plays exactly.
template <int N>
class ProofPlayer {
 public:
  // Loads the proof (throws RunFileError / std::invalid_argument on a bad file or another size).
  explicit ProofPlayer(const std::string& path, int tt_bits = 20);
  ~ProofPlayer();
  ProofPlayer(const ProofPlayer&) = delete;
  ProofPlayer& operator=(const ProofPlayer&) = delete;
  // The move for the side to move p (a square, or kPass when it has none).
  int choose(Bits p, Bits o);
  std::uint64_t moves_from_proof = 0, moves_from_solver = 0;
  // What the roots guarantee from the start for each colour (final disc difference for that
  // colour), if the proof's roots are the start position.
  std::optional<int> black_guarantee, white_guarantee;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Text for messages: "value >= -4".
std::string goal_text(Goal goal, int bound);

}  // namespace zermelo::othello
