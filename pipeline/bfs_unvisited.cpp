// Breadth-first search over the run of unvisited states; see include/zermelo/engine/bfs.hpp.
//
// Runs: U_d (unvisited-d.run) holds the states not reached at plies below d, F_d (frontier-d.run)
// the states first reached at ply d, both sorted keys. Ply d takes the successors of F_{d-1}
// (the start for d = 0), drops those of visited groups (the filter), sorts them with repeats
// removed and merge-joins them with U_d: the keys found are F_d, the rest is U_{d+1}. Stage
// "ply-d" records U_{d+1} and F_d with the counts so far, so a killed search resumes at the ply
// after the last recorded one; stage "done" keeps the last frontier (the deepest states) and U,
// the states the start never reaches.
#include "pipeline/bfs_unvisited.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "pipeline/group_expansions.hpp"
#include "pipeline/parallel_for.hpp"
#include "pipeline/stage_name.hpp"
#include "pipeline/unvisited_filter.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::bfs {
namespace {
namespace fs = std::filesystem;

// Readers, writers and slack held beside the sorter during a pass.
constexpr std::uint64_t kPassOverhead = 48ull << 20;
// Frontier states expanded per parallel batch (their successors are buffered per thread).
constexpr std::size_t kBatch = 1u << 15;

RunOptions key_run(std::uint32_t block_bytes) {
  RunOptions o;
  o.record_type = "bfs.key";
  o.record_size = sizeof(StateKey);
  o.sort_key = "key asc";
  o.delta_u64_keys = true;
  o.shuffle_bytes = true;
  o.block_bytes = block_bytes;
  return o;
}

// The numbered stages: the last ply found, and a ply's frontier kept (BfsOptions::keep_plies).
constexpr NumberedName kPlyStage{"ply"}, kKeptPlyStage{"kept-ply"};

// The counts a search carries from ply to ply (a stage's facts).
struct Counts {
  std::vector<std::uint64_t> new_states;
  std::uint64_t edges = 0, game_ending_moves = 0, terminal_states = 0, filtered = 0;
  std::uint64_t keyless = 0;  // edges whose child's key was skipped: its group took the move before
  unsigned filter_bits = 0;   // bits a group of the filter, once it was built
  nlohmann::json json() const {
    return {{"new_states", new_states},
            {"edges", edges},
            {"game_ending_moves", game_ending_moves},
            {"terminal_states", terminal_states},
            {"filtered", filtered},
            {"keyless", keyless},
            {"filter_bits", filter_bits}};
  }
  static Counts from(const nlohmann::json& f) {
    Counts c;
    c.new_states = f["new_states"].get<std::vector<std::uint64_t>>();
    c.edges = f["edges"], c.game_ending_moves = f["game_ending_moves"],
    c.terminal_states = f["terminal_states"];
    c.filtered = f["filtered"], c.filter_bits = f["filter_bits"];
    c.keyless =
        f.value("keyless", std::uint64_t{0});  // absent in searches begun before it was counted
    return c;
  }
};

class Search {
 public:
  Search(const Game& game, const BfsOptions& opt)
      : game_(game), opt_(opt), manifest_(opt.job_dir, "bfs-all-states", bfs_identity(game, opt)) {
    manifest_.describe("game", game_description(game));
  }

  BfsResult run() {
    if (manifest_.done("done")) return finished(Counts::from(manifest_.facts("done")), true);
    forget_damaged_stages(manifest_);  // a damaged ply: the search starts again
    std::uint32_t d = 0;               // the ply to find next
    Counts c;
    for (auto& s : manifest_.stages())
      if (const auto p = kPlyStage.read(s); p && manifest_.done(s))
        d = static_cast<std::uint32_t>(*p) + 1;
    const bool resumed = d > 0;
    if (resumed)
      c = Counts::from(manifest_.facts(kPlyStage.spell(d - 1)));
    else
      enumerate_all();
    while (ply(d, c) > 0) ++d;
    return finished(c, resumed);
  }

 private:
  std::string unvisited_path(std::uint32_t d) const {
    return manifest_.path("unvisited-" + std::to_string(d) + ".run");
  }
  std::string frontier_path(std::uint32_t d) const {
    return manifest_.path("frontier-" + std::to_string(d) + ".run");
  }

  SortOptions sort_options(std::uint64_t memory) const {
    SortOptions so;
    so.memory_bytes = memory;
    so.threads = opt_.threads;
    so.scratch_dir = manifest_.path("sort");
    so.run.delta_u64_keys = true;
    so.run.shuffle_bytes = true;
    return so;
  }

  // A tier's states written in key order, and the range of keys they cover.
  struct TierRun {
    std::string path;
    StateKey first = 0, last = 0;
    std::uint64_t count = 0;
  };

  // Stage "states": U_0, every state of every tier, sorted. A game that enumerates in key order
  // has each tier written as it comes, then joined (write_states); any other goes through one sort.
  void enumerate_all() {
    if (manifest_.done("states")) return;
    std::vector<TierRun> tier_runs;
    std::unique_ptr<ExternalSorter<StateKey>> sorted;
    if (!game_.enumerates_in_key_order())
      sorted = std::make_unique<ExternalSorter<StateKey>>(states_sort_options());
    for (const Tier& t : game_.tiers()) {
      Progress bar("enumerate " + t.name);
      if (sorted) {
        game_.enumerate(t.name, [&](StateKey k) { sorted->push(k), bar.add(1); });
        continue;
      }
      TierRun run{manifest_.path("states-" + std::to_string(tier_runs.size()) + ".run")};
      RunWriter w(run.path, key_run(opt_.block_bytes));
      game_.enumerate(t.name, [&](StateKey k) {
        if (run.count > 0 && k <= run.last)
          throw std::logic_error(game_.name() + ": tier " + t.name + " enumerates state " +
                                 std::to_string(k) + " out of key order or twice");
        if (run.count++ == 0) run.first = k;
        run.last = k;
        w.push(k), bar.add(1);
      });
      w.finish();
      if (run.count == 0)
        fs::remove(run.path);
      else
        tier_runs.push_back(run);
    }
    RunWriter out(unvisited_path(0), key_run(opt_.block_bytes));
    if (sorted) {
      sorted->sort();
      write_sorted(*sorted, out);
    } else {
      write_states(tier_runs, out);
    }
    RunInfo info = out.finish();
    sorted.reset();
    for (const TierRun& run : tier_runs) fs::remove(run.path);
    manifest_.record("states", {info}, {{"states", info.record_count}});
  }

  SortOptions states_sort_options() const {
    return sort_options(opt_.memory_bytes > 2 * kPassOverhead ? opt_.memory_bytes - kPassOverhead
                                                              : kPassOverhead);
  }

  // Tiers whose key ranges follow one another (Ostle's, by material) are joined block by block as
  // stored, neither decoded nor encoded again; others are merged.
  void write_states(std::vector<TierRun>& tier_runs, RunWriter& out) {
    std::sort(tier_runs.begin(), tier_runs.end(),
              [](const TierRun& a, const TierRun& b) { return a.first < b.first; });
    bool ranges_follow = true;
    for (std::size_t i = 1; i < tier_runs.size(); ++i)
      ranges_follow = ranges_follow && tier_runs[i - 1].last < tier_runs[i].first;
    if (!ranges_follow) {
      std::vector<std::string> paths;
      for (const TierRun& run : tier_runs) paths.push_back(run.path);
      ExternalSorter<StateKey> merged(states_sort_options(), paths);
      return write_sorted(merged, out);
    }
    std::vector<std::byte> stored;
    for (const TierRun& run : tier_runs) {
      RunReader in(run.path);
      if (!out.can_take_blocks_of(in.info()))
        throw std::logic_error("bfs: a tier's run has another layout than the states run");
      for (const BlockInfo& b : in.info().blocks)
        in.read_stored_block(stored), out.append_stored_block(b, stored);
    }
  }

  void write_sorted(ExternalSorter<StateKey>& sorted, RunWriter& out) {
    StateKey k, prev = 0;
    for (bool first = true; sorted.next(k); first = false, prev = k) {
      if (!first && k <= prev)
        throw std::logic_error(game_.name() + ": state " + std::to_string(k) +
                               " is enumerated twice");
      out.push(k);
    }
  }

  // Ply d: F_d and U_{d+1} from the successors of F_{d-1}. Returns |F_d|.
  std::uint64_t ply(std::uint32_t d, Counts& c) {
    const std::uint64_t budget = budget_beside_records(d, c);
    SortOptions so = sort_options(std::max<std::uint64_t>(budget, 24ull << 20));
    so.unique = true;
    ExternalSorter<StateKey> next(so);
    if (d == 0)
      next.push(game_.start());
    else
      expand(d - 1, next, c);
    next.sort();

    RunReader in(unvisited_path(d), IoOptions{}, /*decode_ahead=*/true);
    RunWriter out(unvisited_path(d + 1), key_run(opt_.block_bytes));
    RunWriter frontier(frontier_path(d), key_run(opt_.block_bytes));
    const std::uint64_t copied = merge(d, next, in, out, frontier);
    const RunInfo u = out.finish(), f = frontier.finish();
    if (d == 0 && f.record_count == 0)
      throw std::logic_error(game_.name() + ": the start state is not among the enumerated states");
    report_ply(d, c, next.size(), u.record_count, f.record_count, copied);
    if (f.record_count == 0) return record_done(d, c);
    c.new_states.push_back(f.record_count);
    record_ply(d, u, f, c);
    return f.record_count;
  }

  // The sorter's budget beside the group record and the filter, made here once a search when
  // the game numbers its groups and they fit.
  std::uint64_t budget_beside_records(std::uint32_t d, Counts& c) {
    std::uint64_t budget =
        opt_.memory_bytes > kPassOverhead ? opt_.memory_bytes - kPassOverhead : 0;
    if (!expansions_ && opt_.group_moves && d > 0 && game_.groups_share_moves()) {
      if (auto groups = UnvisitedFilter::all_groups(game_);
          groups && GroupExpansions::bytes_for(*groups) <= budget / 2)
        expansions_ = std::make_unique<GroupExpansions>(*groups);
    }
    if (expansions_) budget -= expansions_->bytes();
    if (!filter_ && opt_.group_filter && d > 0) {
      if (auto groups = UnvisitedFilter::all_groups(game_)) {
        if (unsigned bits = UnvisitedFilter::bits_that_fit(groups->size(), budget * 3 / 8))
          filter_ = std::make_unique<UnvisitedFilter>(game_, *groups, bits, unvisited_path(d));
      }
    }
    if (filter_) budget -= filter_->bytes(), c.filter_bits = filter_->bits_per_group();
    return budget;
  }

  void report_ply(std::uint32_t d, const Counts& c, std::uint64_t sorted, std::uint64_t unvisited,
                  std::uint64_t found, std::uint64_t copied) {
    Progress::note("ply " + std::to_string(d) + ": " + std::to_string(found) + " new states; " +
                   std::to_string(sorted) + " successors sorted, " + std::to_string(c.filtered) +
                   " dropped by the filter and " + std::to_string(c.keyless) +
                   " left unkeyed so far; " + std::to_string(unvisited) + " unvisited (" +
                   std::to_string(copied) + " in blocks copied untouched)");
  }

  // Nothing new at ply d: F_{d-1} is the deepest ply, U_d what is never reached.
  std::uint64_t record_done(std::uint32_t d, const Counts& c) {
    fs::remove(frontier_path(d));
    fs::remove(unvisited_path(d + 1));
    manifest_.record("done", {inspect_run(unvisited_path(d)), inspect_run(frontier_path(d - 1))},
                     c.json());
    forget_plies();
    return 0;
  }

  // Ply d's outputs (U_{d+1}, F_d) supersede ply d-1's.
  void record_ply(std::uint32_t d, const RunInfo& u, const RunInfo& f, const Counts& c) {
    if (d > 0 && opt_.keep_plies)
      manifest_.record(kKeptPlyStage.spell(d - 1), {inspect_run(frontier_path(d - 1))});
    manifest_.record(kPlyStage.spell(d), {u, f}, c.json());
    if (d > 0) {
      manifest_.erase(kPlyStage.spell(d - 1));
      if (!opt_.keep_plies) fs::remove(frontier_path(d - 1));
    } else
      manifest_.erase("states");
    fs::remove(unvisited_path(d));
  }

  // What one thread's share of a batch gives, added to the counts after the batch.
  struct Expanded {
    std::vector<StateKey> keys;
    std::uint64_t edges = 0, ending = 0, terminal = 0, filtered = 0, keyless = 0;
  };

  // A batch of F_p: keys[runs[r], runs[r + 1]) is one group's states (or one state).
  struct Batch {
    std::vector<StateKey> keys;
    std::vector<std::uint64_t> slots;
    std::vector<std::size_t> runs;
    std::size_t run_count() const { return runs.size() - 1; }
  };

  // The successors of F_p into `next`, on all threads; counts F_p's edges and terminal states.
  // With the group record, a batch is cut into runs of one group's states, each run expanded in
  // key order by one thread (the record's byte of a group has one writer).
  void expand(std::uint32_t p, ExternalSorter<StateKey>& next, Counts& c) {
    RunReader frontier(frontier_path(p));
    Progress bar("ply " + std::to_string(p + 1) + " successors", frontier.size());
    const bool expand_moves = p < opt_.max_ply;
    std::vector<Expanded> out(worker_count(opt_.threads));
    Batch b;
    while (next_batch(frontier, b)) {
      parallel_for<std::vector<Child>>(opt_.threads, b.run_count(), 256,
                                       [&](std::size_t t, std::size_t r, std::vector<Child>& kids) {
                                         for (std::size_t i = b.runs[r]; i < b.runs[r + 1]; ++i)
                                           expand_state(b.keys[i], b.slots[i], expand_moves, out[t],
                                                        kids);
                                       });
      for (Expanded& e : out) add(e, next, c);
      bar.add(b.keys.size());
    }
  }

  // Up to kBatch states of the frontier, in runs of one group; false when none are left.
  bool next_batch(RunReader& frontier, Batch& b) const {
    b.keys.clear(), b.slots.clear(), b.runs.clear();
    StateKey s;
    while (b.keys.size() < kBatch && frontier.next(s)) {
      const std::uint64_t slot = expansions_ ? game_.group_slot(s) : b.keys.size();
      if (b.slots.empty() || slot != b.slots.back()) b.runs.push_back(b.keys.size());
      b.keys.push_back(s), b.slots.push_back(slot);
    }
    b.runs.push_back(b.keys.size());
    return !b.keys.empty();
  }

  void expand_state(StateKey s, std::uint64_t slot, bool expand_moves, Expanded& mine,
                    std::vector<Child>& kids) const {
    if (game_.terminal_value(s).is_known()) {
      ++mine.terminal;
      if (!opt_.expand_decided) return;
    }
    if (!expand_moves) return;
    if (expansions_ && expansions_->covers(slot)) {
      const int lacked = game_.successors_skipping(s, expansions_->taken(slot), kids);
      if (lacked >= 64) throw std::logic_error(game_.name() + ": a group has 64 moves or more");
      expansions_->expanded(slot, lacked);
    } else {
      game_.successors(s, kids);
    }
    for (const Child& k : kids) {
      if (k.is_terminal()) {
        ++mine.ending;
        continue;
      }
      ++mine.edges;
      if (k.is_skipped())
        ++mine.keyless;
      else if (filter_ && !filter_->may_be_unvisited(k.key))
        ++mine.filtered;
      else
        mine.keys.push_back(k.key);
    }
  }

  static void add(Expanded& e, ExternalSorter<StateKey>& next, Counts& c) {
    for (StateKey k : e.keys) next.push(k);
    c.edges += e.edges, c.game_ending_moves += e.ending, c.terminal_states += e.terminal;
    c.filtered += e.filtered, c.keyless += e.keyless;
    e = Expanded{std::move(e.keys)};
    e.keys.clear();
  }

  // The sorted successors, the next one at hand.
  struct Successors {
    ExternalSorter<StateKey>& sorted;
    StateKey m = 0;
    bool has = false;
    void advance() { has = sorted.next(m); }
  };

  // Merge-joins the sorted successors with U_d: found keys go to F_d, the rest to U_{d+1}.
  // Blocks of U_d that no successor reaches are copied as stored. Returns the states so copied.
  std::uint64_t merge(std::uint32_t d, ExternalSorter<StateKey>& next, RunReader& in,
                      RunWriter& out, RunWriter& frontier) {
    Successors succ{next};
    succ.advance();
    Progress bar("ply " + std::to_string(d) + " merge", in.size());
    std::uint64_t copied = 0;
    std::vector<std::byte> stored;
    for (;;) {
      copied += copy_untouched_blocks(succ, in, out, stored, bar);
      const void* span;
      const std::size_t n = in.next_span(&span, 1u << 16);
      if (n == 0) break;
      merge_span(static_cast<const StateKey*>(span), n, succ, out, frontier);
      bar.add(n);
    }
    if (filter_) filter_->end_of_run();
    bar.finish();
    return copied;
  }

  // The blocks ahead that no successor reaches, copied as stored; returns their states.
  std::uint64_t copy_untouched_blocks(Successors& succ, RunReader& in, RunWriter& out,
                                      std::vector<std::byte>& stored, Progress& bar) {
    if (!out.can_take_blocks_of(in.info())) return 0;
    const auto& blocks = in.info().blocks;
    std::uint64_t copied = 0;
    while (in.at_block_end() && in.next_block_index() < blocks.size()) {
      const std::size_t b = in.next_block_index();
      const StateKey end = b + 1 < blocks.size() ? blocks[b + 1].first_key : ~StateKey{0};
      while (succ.has && succ.m < blocks[b].first_key) succ.advance();  // to visited states
      // Not decoded ahead: the blocks below the next successor.
      in.will_copy_blocks_below(succ.has ? std::optional<StateKey>(succ.m) : std::nullopt);
      if (succ.has && succ.m < end) break;
      if (out.pending_records() != 0 && out.pending_records() < out.block_records() / 2)
        break;  // blocks stay large
      in.read_stored_block(stored);
      out.append_stored_block(blocks[b], stored);
      if (filter_) filter_->copied_block(blocks[b].first_key);
      const std::uint64_t records = blocks[b].raw_bytes / sizeof(StateKey);
      copied += records;
      bar.add(records);
    }
    return copied;
  }

  // Decoded keys of U_d: those found go to F_d, runs of the others straight on to U_{d+1}.
  void merge_span(const StateKey* keys, std::size_t n, Successors& succ, RunWriter& out,
                  RunWriter& frontier) {
    std::size_t kept_from = 0;  // keys[kept_from, i) stay unvisited: appended at once
    for (std::size_t i = 0; i < n; ++i) {
      while (succ.has && succ.m < keys[i]) succ.advance();
      const bool found = succ.has && succ.m == keys[i];
      if (filter_) filter_->decoded(keys, i, found);
      if (!found) continue;
      out.append_many(keys + kept_from, i - kept_from);
      kept_from = i + 1;
      frontier.push(keys[i]);
      succ.advance();
    }
    out.append_many(keys + kept_from, n - kept_from);
  }

  void forget_plies() {
    for (auto& s : manifest_.stages())
      if (kPlyStage.read(s)) manifest_.erase(s);
  }

  BfsResult finished(const Counts& c, bool resumed) {
    BfsResult res;
    res.new_states = c.new_states;
    for (auto x : c.new_states) res.states += x;
    res.edges = c.edges, res.game_ending_moves = c.game_ending_moves,
    res.terminal_states = c.terminal_states;
    res.filtered = c.filtered;
    res.keyless = c.keyless;
    res.filter_bits = c.filter_bits;
    res.resumed = resumed;
    const std::string deepest = frontier_path(static_cast<std::uint32_t>(c.new_states.size() - 1));
    res.unreached_path = unvisited_path(static_cast<std::uint32_t>(c.new_states.size()));
    res.unreached = inspect_run(res.unreached_path).record_count;
    if (opt_.keep_plies)
      for (std::size_t p = 0; p < c.new_states.size(); ++p)
        res.ply_runs.push_back(frontier_path(static_cast<std::uint32_t>(p)));
    res.enumerated = res.states + res.unreached;
    res.deepest = deepest_states(deepest);
    return res;
  }

  const Game& game_;
  const BfsOptions& opt_;
  Manifest manifest_;
  std::unique_ptr<GroupExpansions> expansions_;
  std::unique_ptr<UnvisitedFilter> filter_;
};

}  // namespace

BfsResult search_unvisited(const Game& game, const BfsOptions& options) {
  return Search(game, options).run();
}

}  // namespace zermelo::bfs
