// The proof-tree prover and checker (proof.hpp). The prover works in rounds:
//   select  walk from the root: a decided node (proved or refuted, cached for good) is returned
//           as is; an OR node follows its first child not yet refuted, in predicted order; an AND
//           node visits every child and is refuted as soon as one child is; an undecided leaf is
//           added to the round's batch;
//   solve   every leaf of the batch is solved with the null window at its bound (the result
//           decides both "value >= b" and "value <= b");
// until the root is decided. The checker shares nothing with the prover but the rules
// (bitboard.hpp), the canonical form (perft.hpp) and the endgame solver.
#include "zermelo/games/othello/proof.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "proof_journal.hpp"
#include "solve_heartbeat.hpp"
#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/perft.hpp"
#include "zermelo/games/othello/solver.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::othello {

std::string goal_text(Goal goal, int bound) {
  return std::string(goal == Goal::kAtLeast ? "value >= " : "value <= ") + std::to_string(bound);
}

namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

struct PosHash {
  std::size_t operator()(const PosKey& k) const { return static_cast<std::size_t>(mix(k.p, k.o)); }
};

// A goal at a position: the unit the prover decides and the proof stores.
struct NodeKey {
  PosKey pos;
  Goal goal = Goal::kAtLeast;
  int bound = 0;
  bool operator==(const NodeKey&) const = default;
};
struct NodeHash {
  std::size_t operator()(const NodeKey& k) const {
    return static_cast<std::size_t>(
        mix(k.pos.p, k.pos.o ^ (static_cast<std::uint64_t>(k.goal) << 62)) ^
        static_cast<std::uint64_t>(k.bound + 128));
  }
};

// The child's goal: the opponent must keep the negated bound, from its own side.
NodeKey child_goal(const NodeKey& k, const PosKey& child) {
  return {child, k.goal == Goal::kAtLeast ? Goal::kAtMost : Goal::kAtLeast, -k.bound};
}

bool holds(Goal goal, int bound, int lo, int hi, bool& decided) {
  if (goal == Goal::kAtLeast) {
    decided = lo >= bound || hi < bound;
    return lo >= bound;
  }
  decided = hi <= bound || lo > bound;
  return hi <= bound;
}

// The one null window that decides a goal: value >= b is value > b - 1; value <= b is not
// value > b.
int goal_threshold(Goal goal, int bound) { return goal == Goal::kAtLeast ? bound - 1 : bound; }

// Narrows what is known of a value, [lo, hi], by a solve whose window held `threshold`: an exact
// score, or a bound on the side of the threshold the score fell.
void narrow(int& lo, int& hi, const SolveResult& r, int threshold) {
  if (r.exact())
    lo = hi = r.score;
  else if (r.score > threshold)
    lo = std::max(lo, r.score);
  else
    hi = std::min(hi, r.score);
}

enum class Status : std::uint8_t { kProved, kFailed, kPending };

std::string mover_board(int n, Bits p, Bits o) {
  Position pos;
  pos.size = n;
  pos.black = p;
  pos.white = o;
  return board_string(pos);
}

// The journal: given, or beside the proof file, or none when neither is named.
std::string journal_path(const WeakSolveOptions& options) {
  if (!options.journal_path.empty()) return options.journal_path;
  return options.proof_path.empty() ? std::string() : options.proof_path + ".journal";
}

double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

template <int N>
class Prover {
 public:
  Prover(const WeakSolveOptions& options,
         const std::function<void(const WeakSolveProgress&)>& progress, WeakSolveResult& stats,
         ProofJournal* journal)
      : options_(options),
        progress_(progress),
        stats_(stats),
        journal_(journal),
        t0_(std::chrono::steady_clock::now()) {
    for (unsigned t = 0; t < std::max(1u, options.threads); ++t)
      solvers_.push_back(std::make_unique<EndgameSolver<N>>(options.tt_bits));
    if (progress_ && options.search == ProofSearch::kSolver)
      heartbeat_ = std::make_unique<SolveHeartbeat>(
          std::chrono::milliseconds(options.heartbeat_ms),
          [this](int empties, double seconds) { beat(empties, seconds); });
  }

  // Decides the root goal: rounds of select and solve, or the solver-led walk.
  bool prove(const NodeKey& root) {
    walk_root_ = root;
    if (options_.search == ProofSearch::kSolver) return walk(root);
    for (int round = 1;; ++round) {
      ++stats_.rounds;
      std::vector<NodeKey> batch;
      pending_.clear();
      const Status s = select(root, batch);
      if (s != Status::kPending) return s == Status::kProved;
      solve_batch(batch, root, round);
    }
  }

  // Writes the proof of the given (proved) root goals; returns (expanded nodes, leaves).
  std::pair<std::uint64_t, std::uint64_t> write(const std::string& path,
                                                const std::vector<NodeKey>& roots) {
    std::vector<std::uint32_t> root_ids;
    for (const NodeKey& r : roots) root_ids.push_back(assign(r));
    std::uint64_t expanded = 0, leaves = 0;
    std::unique_ptr<RunWriter> out;
    if (!path.empty()) {
      RunOptions ro;
      ro.record_size = sizeof(ProofRecord);
      ro.record_type = kProofRecordType;
      ro.sort_key = "none (node records, each followed by its edges)";
      out = std::make_unique<RunWriter>(path, ro);
    }
    for (std::size_t i = 0; i < out_nodes_.size(); ++i) {
      const OutNode& n = out_nodes_[i];
      ProofRecord rec;
      rec.p = n.key.pos.p;
      rec.o = n.key.pos.o;
      rec.tag = std::find(root_ids.begin(), root_ids.end(), i) != root_ids.end()
                    ? ProofRecord::kRoot
                    : ProofRecord::kNode;
      rec.size = N;
      rec.kind = n.leaf ? ProofRecord::kLeaf : ProofRecord::kExpanded;
      rec.goal = static_cast<std::uint8_t>(n.key.goal);
      rec.bound = static_cast<std::int8_t>(n.key.bound);
      (n.leaf ? leaves : expanded) += 1;
      if (out) out->push(rec);
      for (const auto& [move, child] : n.edges) {
        ProofRecord e;
        e.tag = ProofRecord::kEdge;
        e.size = N;
        e.p = child;
        e.move = static_cast<std::int8_t>(move);
        if (out) out->push(e);
      }
    }
    if (out) out->finish();
    return {expanded, leaves};
  }

 private:
  struct Child {
    int move;
    PosKey pos;
  };
  struct Decided {
    bool proved;
    int choice;  // proved OR node: the index of the child that holds
  };
  struct OutNode {
    NodeKey key;
    bool leaf;
    std::vector<std::pair<int, std::uint32_t>> edges;
  };

  int empties(const PosKey& x) const { return N * N - popcount(x.p | x.o); }
  bool finished(const PosKey& x) const {
    return !legal_moves<N>(x.p, x.o) && !legal_moves<N>(x.o, x.p);
  }
  bool is_leaf(const PosKey& x) const { return empties(x) <= options_.leaf_empties || finished(x); }

  // Every legal move's canonical child (a pass when there is none), best predicted first.
  const std::vector<Child>& children(const PosKey& x) {
    auto it = children_.find(x);
    if (it != children_.end()) return it->second;
    std::vector<std::pair<int, Child>> scored;
    Bits moves = legal_moves<N>(x.p, x.o);
    if (!moves) scored.push_back({0, {kPass, canonical<N>(x.o, x.p)}});
    for (; moves; moves &= moves - 1) {
      const int sq = std::countr_zero(moves);
      const Bits f = flips<N>(x.p, x.o, sq);
      const Bits np = x.o & ~f, no = x.p | f | bit(sq);
      // The child's prediction is from the opponent's side: lowest first is best for the mover.
      // The solver-led walk never reads the order, so it predicts nothing.
      const int v = options_.search == ProofSearch::kRounds
                        ? predict<N>(np, no, options_.predict_depth - 1, options_.predictor)
                        : 0;
      scored.push_back({v, {sq, canonical<N>(np, no)}});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Child> out;
    for (auto& s : scored) out.push_back(s.second);
    return children_.emplace(x, std::move(out)).first->second;
  }

  Status decide(const NodeKey& k, bool proved, int choice = -1) {
    decided_.emplace(k, Decided{proved, choice});
    return proved ? Status::kProved : Status::kFailed;
  }

  Status select(const NodeKey& k, std::vector<NodeKey>& batch) {
    if (auto it = decided_.find(k); it != decided_.end())
      return it->second.proved ? Status::kProved : Status::kFailed;
    if (pending_.count(k)) return Status::kPending;
    if (is_leaf(k.pos)) {
      int lo = -N * N, hi = N * N;
      if (finished(k.pos)) {
        lo = hi = final_score<N>(k.pos.p, k.pos.o);
      } else if (auto it = known_.find(k.pos); it != known_.end()) {
        lo = it->second.first;
        hi = it->second.second;
      }
      bool decided = false;
      const bool ok = holds(k.goal, k.bound, lo, hi, decided);
      if (decided) return decide(k, ok);
      pending_.insert(k);
      batch.push_back(k);
      return Status::kPending;
    }
    const std::vector<Child>& kids = children(k.pos);
    if (k.goal == Goal::kAtLeast) {  // OR: the first child not refuted, in predicted order
      for (std::size_t i = 0; i < kids.size(); ++i) {
        const Status s = select(child_goal(k, kids[i].pos), batch);
        if (s == Status::kProved) {
          stats_.failed_predictions += i;
          return decide(k, true, static_cast<int>(i));
        }
        if (s == Status::kPending) {
          pending_.insert(k);
          return Status::kPending;
        }
      }
      stats_.failed_predictions += kids.size();
      return decide(k, false);
    }
    bool pending = false;  // AND: every child
    for (const Child& c : kids) {
      const Status s = select(child_goal(k, c.pos), batch);
      if (s == Status::kFailed) return decide(k, false);
      pending |= s == Status::kPending;
    }
    if (pending) {
      pending_.insert(k);
      return Status::kPending;
    }
    return decide(k, true);
  }

  // The solver-led search (ProofSearch::kSolver), depth first. An OR node asks the solver for a
  // move that keeps the bound; a move it names holds by the solver's exactness, so a child that
  // then fails is a bug, not a wrong guess.
  bool walk(const NodeKey& k) {
    if (auto it = decided_.find(k); it != decided_.end()) return it->second.proved;
    if (is_leaf(k.pos)) return decide(k, leaf_holds(k)) == Status::kProved;
    const std::vector<Child>& kids = children(k.pos);
    if (k.goal == Goal::kAtMost) {  // AND: every move
      for (const Child& c : kids)
        if (!walk(child_goal(k, c.pos))) return decide(k, false) == Status::kProved;
      return decide(k, true) == Status::kProved;
    }
    const SolveResult r = exceeds(k.pos, k.bound - 1);
    ++stats_.interior_solves;
    stats_.interior_nodes += r.nodes;
    report_walk();
    if (r.score < k.bound) return decide(k, false) == Status::kProved;
    for (std::size_t i = 0; i < kids.size(); ++i)
      if (kids[i].move == r.best_move) {
        if (!walk(child_goal(k, kids[i].pos)))
          throw std::logic_error("othello weak-solve: the solver's move " +
                                 square_name(r.best_move) + " does not keep " +
                                 goal_text(k.goal, k.bound) + " at " +
                                 mover_board(N, k.pos.p, k.pos.o));
        return decide(k, true, static_cast<int>(i)) == Status::kProved;
      }
    throw std::logic_error("othello weak-solve: the solver named no legal move at " +
                           mover_board(N, k.pos.p, k.pos.o));
  }

  // A leaf of the walk: decided from what is known of it, else solved at its bound.
  bool leaf_holds(const NodeKey& k) {
    auto [it, fresh] = known_.try_emplace(k.pos, -N * N, N * N);
    auto& [lo, hi] = it->second;
    if (finished(k.pos)) lo = hi = final_score<N>(k.pos.p, k.pos.o);
    bool decided = false;
    const bool ok = holds(k.goal, k.bound, lo, hi, decided);
    if (decided) return ok;
    const int threshold = goal_threshold(k.goal, k.bound);
    const SolveResult r = exceeds(k.pos, threshold);
    ++stats_.leaf_solves;
    stats_.leaf_nodes += r.nodes;
    narrow(lo, hi, r, threshold);
    return holds(k.goal, k.bound, lo, hi, decided);
  }

  // The walk's one question to the solver: the journal's answer if it has one, else a solve that
  // the journal then records.
  SolveResult exceeds(const PosKey& x, int threshold) {
    if (journal_)
      if (auto r = journal_->find(JournalQuery::kExceeds, x.p, x.o, threshold)) {
        ++stats_.resumed_solves;
        return *r;
      }
    if (out_of_solves()) stop();
    fresh_solves_.fetch_add(1);
    if (heartbeat_) {
      note_walk();  // the beats of this solve count every answer before it, replayed ones too
      heartbeat_->begin(empties(x));
    }
    SolveResult r = solvers_[0]->exceeds(x.p, x.o, threshold);
    if (heartbeat_) heartbeat_->end();
    if (journal_) journal_->record(JournalQuery::kExceeds, x.p, x.o, threshold, r);
    return r;
  }

  // A batch's question, on worker thread t (the journal is read-only but for its log); nothing
  // when the search is out of solves.
  std::optional<SolveResult> window(unsigned t, const PosKey& x, int bound) {
    if (journal_)
      if (auto r = journal_->find(JournalQuery::kWindow, x.p, x.o, bound)) {
        resumed_in_batch_.fetch_add(1);
        return *r;
      }
    if (out_of_solves()) return std::nullopt;
    fresh_solves_.fetch_add(1);
    SolveResult r = solvers_[t]->solve(x.p, x.o, bound, bound);
    if (journal_) journal_->record(JournalQuery::kWindow, x.p, x.o, bound, r);
    return r;
  }

  bool out_of_solves() const {
    return options_.stop_after_solves && fresh_solves_.load() >= options_.stop_after_solves;
  }
  [[noreturn]] void stop() const {
    throw WeakSolveStopped(
        "othello weak-solve: stopped after " + std::to_string(fresh_solves_.load()) + " solves; " +
        (journal_ ? "the journal " + journal_->path() + " keeps them, the same command resumes"
                  : std::string("no journal kept them (give --proof or --journal)")));
  }

  void report_walk() {
    if (!progress_ || std::chrono::steady_clock::now() - last_report_ < std::chrono::seconds(2))
      return;
    last_report_ = std::chrono::steady_clock::now();
    std::lock_guard lock(report_mutex_);
    progress_(note_walk_locked());
  }

  // The walk's figures as of now, kept for the heartbeat's lines.
  void note_walk() {
    std::lock_guard lock(report_mutex_);
    note_walk_locked();
  }
  const WeakSolveProgress& note_walk_locked() {
    WeakSolveProgress& pr = last_walk_report_;
    pr.goal = walk_root_.goal;
    pr.bound = walk_root_.bound;
    pr.leaves_solved = stats_.leaf_solves + stats_.interior_solves;
    pr.resumed = stats_.resumed_solves;
    pr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    return pr;
  }

  // The heartbeat's line (its own thread): the walk's last figures and the solve still running.
  void beat(int empties, double seconds) {
    std::lock_guard lock(report_mutex_);
    WeakSolveProgress pr = last_walk_report_;  // noted as the solve began
    pr.solving_empties = empties;
    pr.solving_seconds = seconds;
    pr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    progress_(pr);
  }

  // Solves each (position, bound) of the batch once, on the worker threads.
  void solve_batch(std::vector<NodeKey>& batch, const NodeKey& root, int round) {
    std::sort(batch.begin(), batch.end(), [](const NodeKey& a, const NodeKey& b) {
      return std::tie(a.pos, a.bound) < std::tie(b.pos, b.bound);
    });
    batch.erase(std::unique(batch.begin(), batch.end(),
                            [](const NodeKey& a, const NodeKey& b) {
                              return a.pos == b.pos && a.bound == b.bound;
                            }),
                batch.end());
    std::vector<SolveResult> results(batch.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> skipped{false};  // out of solves: some of the batch was not solved
    auto report = [&] {
      if (!progress_ || std::chrono::steady_clock::now() - last_report_ < std::chrono::seconds(2))
        return;
      last_report_ = std::chrono::steady_clock::now();
      WeakSolveProgress pr;
      pr.round = round;
      pr.goal = root.goal;
      pr.bound = root.bound;
      pr.leaves_solved = stats_.leaf_solves + done.load();
      pr.resumed = stats_.resumed_solves + resumed_in_batch_.load();
      pr.batch = batch.size();
      pr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
      progress_(pr);
    };
    auto work = [&](unsigned t) {
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= batch.size()) return;
        const auto r = window(t, batch[i].pos, batch[i].bound);
        if (!r) return skipped.store(true);
        results[i] = *r;
        done.fetch_add(1);
        if (t == 0) report();
      }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < solvers_.size(); ++t) helpers.emplace_back(work, t);
    work(0);
    for (auto& h : helpers) h.join();
    if (skipped.load()) stop();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const SolveResult& r = results[i];
      auto [it, fresh] = known_.try_emplace(batch[i].pos, -N * N, N * N);
      auto& [lo, hi] = it->second;
      narrow(lo, hi, r, batch[i].bound);
      stats_.leaf_nodes += r.nodes;
    }
    stats_.leaf_solves += batch.size();
    stats_.resumed_solves += resumed_in_batch_.exchange(0);
    done.store(0);
    report();
  }

  // Numbers the proof's nodes depth-first from a proved goal (each goal once: the proof is a DAG).
  std::uint32_t assign(const NodeKey& k) {
    if (auto it = ids_.find(k); it != ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(out_nodes_.size());
    ids_.emplace(k, id);
    out_nodes_.push_back({k, is_leaf(k.pos), {}});
    if (out_nodes_.back().leaf) return id;
    const auto& d = decided_.at(k);
    const std::vector<Child>& kids = children(k.pos);
    std::vector<std::pair<int, std::uint32_t>> edges;
    if (k.goal == Goal::kAtLeast) {
      const Child& c = kids.at(static_cast<std::size_t>(d.choice));
      edges.emplace_back(c.move, assign(child_goal(k, c.pos)));
    } else {
      for (const Child& c : kids) edges.emplace_back(c.move, assign(child_goal(k, c.pos)));
    }
    out_nodes_[id].edges = std::move(edges);
    return id;
  }

  const WeakSolveOptions& options_;
  const std::function<void(const WeakSolveProgress&)>& progress_;
  WeakSolveResult& stats_;
  ProofJournal* journal_;  // null: no journal
  std::atomic<std::uint64_t> resumed_in_batch_{0};
  std::atomic<std::uint64_t> fresh_solves_{0};  // solves the journal did not answer
  std::mutex report_mutex_;  // progress_ is called from the walk and from the heartbeat
  WeakSolveProgress last_walk_report_;
  std::chrono::steady_clock::time_point t0_, last_report_;
  NodeKey walk_root_;  // the goal being proved, for progress lines
  std::vector<std::unique_ptr<EndgameSolver<N>>> solvers_;
  std::unordered_map<PosKey, std::pair<int, int>, PosHash>
      known_;  // leaves: [lo, hi] of the exact value
  std::unordered_map<NodeKey, Decided, NodeHash> decided_;
  std::unordered_set<NodeKey, NodeHash> pending_;
  std::unordered_map<PosKey, std::vector<Child>, PosHash> children_;
  std::unordered_map<NodeKey, std::uint32_t, NodeHash> ids_;
  std::vector<OutNode> out_nodes_;
  std::unique_ptr<SolveHeartbeat> heartbeat_;  // the walk's long solves; last: stopped first
};

}  // namespace

template <int N>
WeakSolveResult weak_solve(Bits p, Bits o, const WeakSolveOptions& options,
                           const std::function<void(const WeakSolveProgress&)>& progress) {
  if ((p & o) || ((p | o) & ~Geometry<N>::kMask))
    throw std::invalid_argument(
        "othello weak-solve: impossible position (overlapping discs or discs off the board)");
  if (options.leaf_empties < 0)
    throw std::invalid_argument("othello weak-solve: leaf empties must be >= 0");
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_now();
  constexpr int S = N * N;
  WeakSolveResult result;
  const PosKey root = canonical<N>(p, o);
  result.journal_path = journal_path(options);
  std::unique_ptr<ProofJournal> journal;
  if (!result.journal_path.empty())
    journal = std::make_unique<ProofJournal>(result.journal_path, N, root.p, root.o);
  Prover<N> prover(options, progress, result, journal.get());
  auto attempt = [&](Goal g, int b) {
    result.attempts.emplace_back(g, b);
    const bool ok = prover.prove({root, g, b});
    result.attempt_proved.push_back(ok);
    return ok;
  };
  int v = 0;
  if (options.value) {
    v = *options.value;
    if (v < -S || v > S || (v & 1))
      throw std::invalid_argument(
          "othello weak-solve: --value must be even and within the board's score range");
    if (!attempt(Goal::kAtLeast, v))
      throw std::runtime_error("othello weak-solve: refuted: " + goal_text(Goal::kAtLeast, v));
    if (!attempt(Goal::kAtMost, v))
      throw std::runtime_error("othello weak-solve: refuted: " + goal_text(Goal::kAtMost, v));
  } else {
    // Guess from the prediction, then walk by 2: a refuted lower bound moves down, a refuted upper
    // bound (after its lower bound held) moves up; each direction is taken at most once in a row.
    const int guess = predict<N>(root.p, root.o, options.predict_depth, options.predictor);
    v = std::clamp(2 * static_cast<int>(std::lround(guess / 200.0)), -S, S);
    for (;;) {
      if (!attempt(Goal::kAtLeast, v)) {
        v -= 2;
        continue;
      }
      if (attempt(Goal::kAtMost, v)) break;
      v += 2;
    }
  }
  result.value = v;
  const auto [expanded, leaves] =
      prover.write(options.proof_path, {{root, Goal::kAtLeast, v}, {root, Goal::kAtMost, v}});
  result.internal_nodes = expanded;
  result.leaves = leaves;
  if (journal) journal->remove();  // the proof is written whole: nothing is left to resume
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.cpu_seconds = cpu_now() - c0;
  return result;
}

// ---------------------------------------------------------------------------------------------
// The checker.

namespace {

struct LoadedNode {
  ProofRecord rec;
  std::size_t first_edge = 0, edge_count = 0;
};

template <int N>
class Checker {
 public:
  Checker(std::vector<LoadedNode>& nodes, std::vector<ProofRecord>& edges, int tt_bits,
          ProofCheck& out)
      : nodes_(nodes), edges_(edges), solver_(tt_bits), out_(out) {}

  bool run() {
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (!check_node(i)) return false;
    const PosKey start = canonical<N>(Geometry<N>::kStartBlack, Geometry<N>::kStartWhite);
    std::vector<char> seen(nodes_.size(), 0);
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const ProofRecord& r = nodes_[i].rec;
      if (r.tag != ProofRecord::kRoot) continue;
      out_.roots.push_back(
          {r.p, r.o, static_cast<Goal>(r.goal), r.bound, PosKey{r.p, r.o} == start});
      seen[i] = 1;
      stack.push_back(i);
    }
    if (out_.roots.empty()) return fail("the proof has no root node");
    while (!stack.empty()) {
      const LoadedNode& n = nodes_[stack.back()];
      stack.pop_back();
      for (std::size_t e = 0; e < n.edge_count; ++e) {
        const std::size_t c = edges_[n.first_edge + e].p;
        if (!seen[c]) {
          seen[c] = 1;
          stack.push_back(c);
        }
      }
    }
    out_.unreachable = static_cast<std::uint64_t>(std::count(seen.begin(), seen.end(), 0));
    return true;
  }

 private:
  std::string describe(std::size_t i) const {
    const ProofRecord& r = nodes_[i].rec;
    return "node #" + std::to_string(i) + " [" + mover_board(N, r.p, r.o) + ", X to move, " +
           goal_text(static_cast<Goal>(r.goal), r.bound) + "]";
  }
  bool fail(const std::string& message) {
    out_.error = message;
    return false;
  }

  bool check_node(std::size_t i) {
    const LoadedNode& n = nodes_[i];
    const ProofRecord& r = n.rec;
    constexpr int S = N * N;
    if ((r.p & r.o) || ((r.p | r.o) & ~Geometry<N>::kMask))
      return fail(describe(i) + ": not a position of the board");
    if (canonical<N>(r.p, r.o) != PosKey{r.p, r.o})
      return fail(describe(i) + ": position is not in canonical form");
    if (r.goal > 1 || r.bound < -S || r.bound > S) return fail(describe(i) + ": bad goal or bound");
    const Goal goal = static_cast<Goal>(r.goal);
    if (r.kind == ProofRecord::kLeaf) {
      if (n.edge_count) return fail(describe(i) + ": a leaf with edges");
      // Fail-soft: the score bounds the value on the side of the threshold it fell.
      const int threshold = goal_threshold(goal, r.bound);
      const SolveResult s = solver_.exceeds(r.p, r.o, threshold);
      out_.leaf_solver_nodes += s.nodes;
      ++out_.leaves;
      const bool above = s.score > threshold;
      if (above != (goal == Goal::kAtLeast))
        return fail(describe(i) + ": leaf does not hold: the endgame solver gives " +
                    (above ? "at least " : "at most ") + std::to_string(s.score));
      return true;
    }
    if (r.kind != ProofRecord::kExpanded) return fail(describe(i) + ": unknown node kind");
    ++out_.expanded;
    const Bits moves = legal_moves<N>(r.p, r.o);
    if (!moves && !legal_moves<N>(r.o, r.p)) {  // a finished game: the score decides
      if (n.edge_count) return fail(describe(i) + ": a finished game with edges");
      const int score = final_score<N>(r.p, r.o);
      if (goal == Goal::kAtLeast ? score < r.bound : score > r.bound)
        return fail(describe(i) + ": finished game scores " + std::to_string(score));
      return true;
    }
    // The moves the rules require: one for an OR node, all for an AND node; a pass if none.
    if (goal == Goal::kAtLeast && n.edge_count != 1)
      return fail(describe(i) + ": an OR node (value >= bound) needs exactly one move, has " +
                  std::to_string(n.edge_count));
    Bits required = moves, given = 0;
    bool pass_given = false;
    for (std::size_t e = 0; e < n.edge_count; ++e) {
      const ProofRecord& edge = edges_[n.first_edge + e];
      const int move = edge.move;
      PosKey child;
      if (move == kPass) {
        if (moves) return fail(describe(i) + ": a pass where the side to move has moves");
        if (pass_given) return fail(describe(i) + ": the pass twice");
        pass_given = true;
        child = canonical<N>(r.o, r.p);
      } else {
        if (move < 0 || move >= 64 || !(moves & bit(move)))
          return fail(describe(i) + ": move " + square_name(move) + " is not legal");
        if (given & bit(move)) return fail(describe(i) + ": move " + square_name(move) + " twice");
        given |= bit(move);
        const Bits f = flips<N>(r.p, r.o, move);
        child = canonical<N>(r.o & ~f, r.p | f | bit(move));
      }
      const std::size_t c = edge.p;
      const std::string what = describe(i) + ": move " + square_name(move);
      if (c >= nodes_.size())
        return fail(what + " leads to node #" + std::to_string(c) + ", which does not exist");
      const ProofRecord& cr = nodes_[c].rec;
      if (PosKey{cr.p, cr.o} != child)
        return fail(what + " leads to " + describe(c) + ", not to the position after the move");
      const bool strong_enough = goal == Goal::kAtLeast ? (cr.goal == 1 && cr.bound <= -r.bound)
                                                        : (cr.goal == 0 && cr.bound >= -r.bound);
      if (!strong_enough)
        return fail(what + " leads to " + describe(c) + ", whose goal does not imply this node's");
    }
    if (goal == Goal::kAtMost) {
      if (!moves && !pass_given)
        return fail(describe(i) + ": an AND node must pass and has no pass edge");
      if (const Bits missing = required & ~given)
        return fail(describe(i) + ": an AND node lacks move " +
                    square_name(std::countr_zero(missing)));
    }
    if (!moves && goal == Goal::kAtLeast && !pass_given) return fail(describe(i) + ": must pass");
    out_.edges += n.edge_count;
    return true;
  }

  std::vector<LoadedNode>& nodes_;
  std::vector<ProofRecord>& edges_;
  EndgameSolver<N> solver_;
  ProofCheck& out_;
};

}  // namespace

ProofCheck check_proof(const std::string& path, int tt_bits) {
  const auto t0 = std::chrono::steady_clock::now();
  ProofCheck out;
  RunReader reader(path);
  if (reader.info().options.record_type != kProofRecordType ||
      reader.record_size() != sizeof(ProofRecord)) {
    out.error = path + ": not an Othello proof (record type '" + reader.info().options.record_type +
                "', " + std::to_string(reader.record_size()) + "-byte records; expected '" +
                kProofRecordType + "', " + std::to_string(sizeof(ProofRecord)) + ")";
    return out;
  }
  std::vector<LoadedNode> nodes;
  std::vector<ProofRecord> edges;
  ProofRecord rec;
  std::uint64_t index = 0;
  while (reader.next(rec)) {
    const std::string where = "record " + std::to_string(index++);
    if (out.size == 0) out.size = rec.size;
    if (rec.size != out.size || (out.size != 4 && out.size != 6 && out.size != 8)) {
      out.error = where + ": board size " + std::to_string(rec.size) + " (the proof's is " +
                  std::to_string(out.size) + ")";
      return out;
    }
    if (rec.tag == ProofRecord::kEdge) {
      if (nodes.empty()) {
        out.error = where + ": an edge before any node";
        return out;
      }
      ++nodes.back().edge_count;
      edges.push_back(rec);
    } else if (rec.tag == ProofRecord::kNode || rec.tag == ProofRecord::kRoot) {
      nodes.push_back({rec, edges.size(), 0});
    } else {
      out.error = where + ": unknown record tag " + std::to_string(rec.tag);
      return out;
    }
  }
  out.nodes = nodes.size();
  bool ok = false;
  switch (out.size) {
    case 4:
      ok = Checker<4>(nodes, edges, tt_bits, out).run();
      break;
    case 6:
      ok = Checker<6>(nodes, edges, tt_bits, out).run();
      break;
    case 8:
      ok = Checker<8>(nodes, edges, tt_bits, out).run();
      break;
    default:
      out.error = path + ": the proof is empty";
      break;
  }
  out.ok = ok;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// ---------------------------------------------------------------------------------------------
// The player.

template <int N>
struct ProofPlayer<N>::Impl {
  explicit Impl(int tt_bits) : solver(tt_bits) {}
  // Canonical position -> (bound, canonical move) of its strongest "value >= bound" node: the two
  // roots' trees may hold one position with different bounds, and the stronger proof also proves
  // the weaker bound.
  std::unordered_map<PosKey, std::pair<int, int>, PosHash> or_moves;
  EndgameSolver<N> solver;
};

template <int N>
ProofPlayer<N>::ProofPlayer(const std::string& path, int tt_bits)
    : impl_(std::make_unique<Impl>(tt_bits)) {
  RunReader reader(path);
  if (reader.info().options.record_type != kProofRecordType)
    throw std::invalid_argument(path + ": not an Othello proof");
  ProofRecord rec, node;
  bool or_node = false;
  while (reader.next(rec)) {
    if (rec.size != N)
      throw std::invalid_argument(path + ": a proof for " + std::to_string(rec.size) + "x" +
                                  std::to_string(rec.size) + ", not " + std::to_string(N) + "x" +
                                  std::to_string(N));
    if (rec.tag == ProofRecord::kEdge) {
      if (!or_node) continue;
      auto [it, fresh] = impl_->or_moves.try_emplace(PosKey{node.p, node.o}, node.bound, rec.move);
      if (!fresh && node.bound > it->second.first) it->second = {node.bound, rec.move};
    } else {
      node = rec;
      or_node = rec.kind == ProofRecord::kExpanded &&
                rec.goal == static_cast<std::uint8_t>(Goal::kAtLeast);
      if (rec.tag == ProofRecord::kRoot &&
          PosKey{rec.p, rec.o} ==
              canonical<N>(Geometry<N>::kStartBlack, Geometry<N>::kStartWhite)) {
        if (rec.goal == static_cast<std::uint8_t>(Goal::kAtLeast))
          black_guarantee = rec.bound;  // Black moves first
        else
          white_guarantee = -rec.bound;
      }
    }
  }
}

template <int N>
ProofPlayer<N>::~ProofPlayer() = default;

template <int N>
int ProofPlayer<N>::choose(Bits p, Bits o) {
  const Bits moves = legal_moves<N>(p, o);
  if (!moves) return kPass;
  const PosKey c = canonical<N>(p, o);
  if (auto it = impl_->or_moves.find(c);
      it != impl_->or_moves.end() && it->second.second != kPass) {
    for (int k = 0; k < 8; ++k) {
      if (transform<N>(p, k) != c.p || transform<N>(o, k) != c.o) continue;
      // The real move whose image under the symmetry is the proof's move.
      for (Bits m = moves; m; m &= m - 1) {
        const int sq = std::countr_zero(m);
        if (transform<N>(bit(sq), k) == bit(it->second.second)) {
          ++moves_from_proof;
          return sq;
        }
      }
    }
  }
  ++moves_from_solver;
  return impl_->solver.solve(p, o, -N * N, N * N).best_move;
}

#define ZERMELO_OTHELLO_INSTANTIATE(N)                                        \
  template class ProofPlayer<N>;                                              \
  template WeakSolveResult weak_solve<N>(Bits, Bits, const WeakSolveOptions&, \
                                         const std::function<void(const WeakSolveProgress&)>&);
ZERMELO_OTHELLO_INSTANTIATE(4)
ZERMELO_OTHELLO_INSTANTIATE(6)
ZERMELO_OTHELLO_INSTANTIATE(8)
#undef ZERMELO_OTHELLO_INSTANTIATE

}  // namespace zermelo::othello
