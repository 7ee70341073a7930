// Step 2: the initial scan. Every state once: values fixed by the rules, children counted,
// terminal moves and children in lower tiers scheduled as messages, reverse edges built if the
// game has no un-moves. The scan runs in chunks of the sorted keys, each a manifest stage of its
// own (a tier of billions of states takes hours to scan: a kill costs one chunk); step 3 joins
// the chunks' parts.
#include <algorithm>
#include <string>
#include <vector>

#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// A scanned state: decided (value != 0) or undecided with `pending` children not known won.
struct ScanRecord {
  std::uint64_t key = 0;
  std::uint32_t pending = 0;
  std::uint16_t value = 0;
};

// What one thread's states of a batch send on, pushed in thread order after the batch.
struct ThreadOutputs {
  std::vector<LevelMsg> scheduled;
  std::vector<Edge> lookups, edges;
  std::uint64_t exit_moves = 0;  // moves into lower tiers settled from the exit values
};

// What a state learns from its children while it is scanned.
struct ChildrenSeen {
  bool lost_now = false;  // a child lost in 0 plies: the state wins in 1
  ExitSummary exits;      // its children in lower tiers, from the exit values
};

// Scans one state; shared by the threads (const).
class StateScanner {
 public:
  explicit StateScanner(const SolveState& s)
      : game_(s.game),
        tier_(s.opt.tier),
        reverse_edges_(s.reverse_edges()),
        lower_tiers_(!s.opt.lower_tier_values.empty()),
        exits_(s.exits.get()) {}

  void scan(StateKey k, ScanRecord& rec, ThreadOutputs& out, std::vector<Child>& kids) const {
    rec.key = k;
    const Value tv = game_.terminal_value(k);
    if (tv.is_known()) return decided_by_rules(k, tv, rec, out);
    if (reverse_edges_)
      game_.successors(k, kids);
    else
      game_.successor_outcomes(k, kids);  // un-moves find parents: child keys are not needed
    if (kids.empty())
      throw std::logic_error(game_.name() + ": state " + std::to_string(k) +
                             " has no moves and no terminal value");
    rec.pending = static_cast<std::uint32_t>(kids.size());
    ChildrenSeen seen;
    for (const Child& c : kids) child(k, c, rec, out, seen);
    conclude(k, seen, rec, out);
  }

 private:
  static void decided_by_rules(StateKey k, Value v, ScanRecord& rec, ThreadOutputs& out) {
    rec.value = v.raw();
    // A value in 0 plies needs no messages: every parent applies it while scanned here.
    if ((v.is_win() || v.is_loss()) && v.plies() > 0)
      out.scheduled.push_back(LevelMsg{v.plies(), kSeed, v.raw(), k});
  }

  void child(StateKey k, const Child& c, ScanRecord& rec, ThreadOutputs& out,
             ChildrenSeen& seen) const {
    // Children whose value the rules fix in 0 plies (game-ending moves, checkmates) are applied
    // at once, instead of as level-0 messages: that is most of level 0's work.
    const Value cv = c.is_terminal() ? c.terminal
                     : c.rule_known  ? c.rule
                                     : game_.terminal_value(c.key);
    if (cv.is_known() && cv.plies() == 0 && !cv.is_draw()) {
      if (cv.is_loss())
        seen.lost_now = true;
      else
        --rec.pending;
    } else if (c.is_terminal()) {
      if (cv.is_win() || cv.is_loss())
        out.scheduled.push_back(LevelMsg{cv.plies(), kMessage, cv.raw(), k});
    } else if (!c.is_unkeyed_in_tier() && lower_tiers_ && game_.tier_of(c.key) != tier_) {
      if (exits_)
        seen.exits.add(exits_->find(c.key, k));
      else
        out.lookups.push_back(Edge{c.key, k});
    } else if (reverse_edges_) {
      out.edges.push_back(Edge{c.key, k});
    }
  }

  // The children in lower tiers count as one; a state decided now is a seed of level 1.
  static void conclude(StateKey k, const ChildrenSeen& seen, ScanRecord& rec, ThreadOutputs& out) {
    const std::uint32_t exits = seen.exits.count();
    if (exits > 0) rec.pending -= exits - 1, out.exit_moves += exits;
    const Value now = seen.lost_now      ? Value::win(1)
                      : rec.pending == 0 ? Value::loss(1)
                                         : Value::unknown();
    if (now.is_known()) {
      rec.value = now.raw();
      out.scheduled.push_back(LevelMsg{1, kSeed, now.raw(), k});
    } else if (const Value m = seen.exits.message(); m.is_known()) {
      out.scheduled.push_back(LevelMsg{m.plies(), kMessage, m.raw(), k});
    }
  }

  const Game& game_;
  const std::string tier_;
  const bool reverse_edges_, lower_tiers_;
  const ExitValues* exits_;
};

// A chunk's part runs: undecided states, decided states, scheduled messages (sorted by level,
// key), lookups of children in lower tiers and reverse edges (sorted by child).
class ChunkParts {
 public:
  ChunkParts(const SolveState& s, std::size_t part)
      : s_(s),
        part_(part),
        states_(s.files.path(Run::undecided_part, part), run_options<Undecided>()),
        decided_(s.files.path(Run::decided_part, part), run_options<KeyValue>()),
        scheduled_(sort_options_within(busy_memory(), s, Sorter::scheduled, busy())),
        edges_(sorter(Sorter::edges, s.reverse_edges())),
        lookups_(sorter(Sorter::lookups, looks_up())) {}

  // A batch's results: records in key order, then each thread's messages and edges.
  void take(const std::vector<ScanRecord>& recs, std::vector<ThreadOutputs>& outs) {
    for (ThreadOutputs& t : outs) {
      for (const LevelMsg& m : t.scheduled)
        scheduled_.push(m), max_level_ = std::max(max_level_, m.level);
      for (const Edge& e : t.lookups) lookups_.push(e);
      for (const Edge& e : t.edges) edges_.push(e);
      exit_moves_ += t.exit_moves;
      t.scheduled.clear(), t.lookups.clear(), t.edges.clear(), t.exit_moves = 0;
    }
    for (const ScanRecord& r : recs) {
      if (r.value)
        decided_.push(KeyValue{r.key, r.value});
      else
        states_.push(Undecided{r.key, r.pending, 0});
    }
  }

  // The parts written and recorded as the chunk's stage.
  void finish(SolveState& s) {
    std::vector<RunInfo> outs{states_.finish(), decided_.finish()};
    outs.push_back(sorted(scheduled_, Run::scheduled_part, run_options<LevelMsg>()));
    outs.push_back(sorted(lookups_, Run::lookups_part, run_options<Edge>()));
    outs.push_back(sorted(edges_, Run::edges_part, run_options<Edge>()));
    s.record(Stage::scan_chunk(part_), outs,
             {{"max_scheduled_level", max_level_}, {"exit_moves_settled", exit_moves_}});
  }

 private:
  bool looks_up() const { return !s_.opt.lower_tier_values.empty() && !s_.exits; }
  // The sorters that receive records split what the exit values leave; an idle one gets a token.
  unsigned busy() const { return 1 + unsigned{looks_up()} + unsigned{s_.reverse_edges()}; }
  std::uint64_t busy_memory() const {
    return s_.opt.memory_bytes - (s_.exits ? s_.exits->bytes() : 0) - (3 - busy()) * kMinSorter;
  }
  SortOptions sorter(Sorter which, bool is_busy) const {
    return is_busy ? sort_options_within(busy_memory(), s_, which, busy())
                   : sort_options_within(kPassOverhead + kMinSorter, s_, which);
  }
  template <class R>
  RunInfo sorted(ExternalSorter<R>& sorter, Run run, const RunOptions& options) {
    sorter.sort();
    return sorter.write_to(s_.files.path(run, part_), options);
  }

  const SolveState& s_;
  const std::size_t part_;
  RunWriter states_, decided_;
  ExternalSorter<LevelMsg> scheduled_;
  ExternalSorter<Edge> edges_, lookups_;
  std::uint32_t max_level_ = 0;
  std::uint64_t exit_moves_ = 0;
};

// Up to kBatch keys of the chunk's `left` into `batch`; false when none are left.
bool next_batch(RunReader& keys, std::uint64_t& left, std::vector<StateKey>& batch) {
  batch.clear();
  StateKey k;
  while (batch.size() < kBatch && left > 0 && keys.next(k)) batch.push_back(k), --left;
  return !batch.empty();
}

// Keys [chunks.begin(part), chunks.end(part)), in batches expanded on all threads; the results
// are pushed in key order by this thread.
void scan_chunk(SolveState& s, const ScanChunks& chunks, std::size_t part, Progress& bar) {
  ChunkParts parts(s, part);
  const StateScanner scanner(s);
  RunReader keys(s.files.path(Run::keys));
  keys.skip_to(chunks.begin(part));
  std::uint64_t left = chunks.end(part) - chunks.begin(part);
  std::vector<StateKey> batch;
  std::vector<ScanRecord> recs;
  std::vector<ThreadOutputs> outs(worker_count(s.opt.threads));
  while (next_batch(keys, left, batch)) {
    recs.assign(batch.size(), ScanRecord{});
    parallel_for<std::vector<Child>>(s.opt.threads, batch.size(), 1024,
                                     [&](std::size_t t, std::size_t i, std::vector<Child>& kids) {
                                       scanner.scan(batch[i], recs[i], outs[t], kids);
                                     });
    parts.take(recs, outs);
    bar.add(batch.size());
  }
  parts.finish(s);
}

// The lower tiers' values in an array by exit slot, when the game numbers its exits and the
// array leaves the scan's sorters room (ExitValues). Chunks are self-contained either way (a
// state's pending count and its messages come from the same chunk), so a resumed scan may
// take the other way under another budget and still give the same values.
void load_exit_values(SolveState& s) {
  const std::uint64_t bytes = ExitValues::bytes_for(s.game, s.opt.tier);
  if (!s.opt.exit_values || s.opt.lower_tier_values.empty() || bytes == 0) return;
  // At most half of what the scan's three sorters could have, so that the busy ones keep room.
  if (s.opt.memory_bytes < kMemoryFloor || bytes > (s.opt.memory_bytes - kMemoryFloor) / 2) {
    Progress::note("init: the exit values need " + std::to_string(bytes >> 20) +
                   " MiB, more than --memory leaves; looking them up instead");
    return;
  }
  s.exits = std::make_unique<ExitValues>(s.game, s.opt.tier, s.opt.lower_tier_values);
  Progress::note("init: exit values in memory: " + std::to_string(bytes >> 20) + " MiB");
}

// Every key of keys.run. Under MPI a rank's keys.run holds only its own shards' states, since all
// the scan writes is filed under the scanned state's key; except the reverse edges, filed under
// the child's: a game without un-moves enumerates and scans the whole tier on every rank.
ScanChunks plan_chunks(const SolveState& s) {
  ScanChunks c;
  c.states = inspect_run(s.files.path(Run::keys)).record_count;
  c.per_chunk = std::max<std::uint64_t>(1, s.opt.init_chunk_states);
  c.count = static_cast<std::size_t>(
      std::max<std::uint64_t>(1, (c.states + c.per_chunk - 1) / c.per_chunk));
  return c;
}

}  // namespace

ScanChunks scan_states(SolveState& s) {
  const ScanChunks chunks = plan_chunks(s);
  bool chunks_left = false;
  for (std::size_t i = 0; i < chunks.count; ++i)
    chunks_left = chunks_left || !s.done(Stage::scan_chunk(i));
  if (chunks_left) load_exit_values(s);
  Progress bar("init " + s.game.name() + " " + s.opt.tier, chunks.states);
  for (std::size_t i = 0; i < chunks.count; ++i) {
    if (!s.done(Stage::scan_chunk(i)))
      scan_chunk(s, chunks, i, bar);
    else
      bar.add(chunks.end(i) - chunks.begin(i));
  }
  bar.finish();
  s.exits.reset();
  return chunks;
}

}  // namespace zermelo::retro
