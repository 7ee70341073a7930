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

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "pipeline/group_expansions.hpp"
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

// The counts a search carries from ply to ply (a stage's facts).
struct Counts {
  std::vector<std::uint64_t> new_states;
  std::uint64_t edges = 0, game_ending_moves = 0, terminal_states = 0, filtered = 0;
  std::uint64_t keyless = 0;  // edges whose child's key was skipped: its group took the move before
  unsigned filter_bits = 0;  // bits a group of the filter, once it was built
  nlohmann::json json() const {
    return {{"new_states", new_states}, {"edges", edges}, {"game_ending_moves", game_ending_moves},
            {"terminal_states", terminal_states}, {"filtered", filtered}, {"keyless", keyless}, {"filter_bits", filter_bits}};
  }
  static Counts from(const nlohmann::json& f) {
    Counts c;
    c.new_states = f["new_states"].get<std::vector<std::uint64_t>>();
    c.edges = f["edges"], c.game_ending_moves = f["game_ending_moves"], c.terminal_states = f["terminal_states"];
    c.filtered = f["filtered"], c.filter_bits = f["filter_bits"];
    c.keyless = f.value("keyless", std::uint64_t{0});  // absent in searches begun before it was counted
    return c;
  }
};

class Search {
 public:
  Search(const Game& game, const BfsOptions& opt)
      : game_(game), opt_(opt),
        manifest_(opt.job_dir, "bfs-all-states", bfs_identity(game, opt)) {
    manifest_.describe("game", game_description(game));
  }

  BfsResult run() {
    if (manifest_.done("done")) return finished(Counts::from(manifest_.facts("done")), true);
    forget_damaged_stages(manifest_);  // a damaged ply: the search starts again
    std::uint32_t d = 0;  // the ply to find next
    Counts c;
    for (auto& s : manifest_.stages())
      if (s.rfind("ply-", 0) == 0 && manifest_.done(s)) d = static_cast<std::uint32_t>(std::stoul(s.substr(4))) + 1;
    const bool resumed = d > 0;
    if (resumed) c = Counts::from(manifest_.facts("ply-" + std::to_string(d - 1)));
    else enumerate_all();
    while (ply(d, c) > 0) ++d;
    return finished(c, resumed);
  }

 private:
  std::string unvisited_path(std::uint32_t d) const { return manifest_.path("unvisited-" + std::to_string(d) + ".run"); }
  std::string frontier_path(std::uint32_t d) const { return manifest_.path("frontier-" + std::to_string(d) + ".run"); }

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
    if (!game_.enumerates_in_key_order()) sorted = std::make_unique<ExternalSorter<StateKey>>(states_sort_options());
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
          throw std::logic_error(game_.name() + ": tier " + t.name + " enumerates state " + std::to_string(k) + " out of key order or twice");
        if (run.count++ == 0) run.first = k;
        run.last = k;
        w.push(k), bar.add(1);
      });
      w.finish();
      if (run.count == 0) fs::remove(run.path);
      else tier_runs.push_back(run);
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
    return sort_options(opt_.memory_bytes > 2 * kPassOverhead ? opt_.memory_bytes - kPassOverhead : kPassOverhead);
  }

  // Tiers whose key ranges follow one another (Ostle's, by material) are joined block by block as
  // stored, neither decoded nor encoded again; others are merged.
  void write_states(std::vector<TierRun>& tier_runs, RunWriter& out) {
    std::sort(tier_runs.begin(), tier_runs.end(), [](const TierRun& a, const TierRun& b) { return a.first < b.first; });
    bool ranges_follow = true;
    for (std::size_t i = 1; i < tier_runs.size(); ++i) ranges_follow = ranges_follow && tier_runs[i - 1].last < tier_runs[i].first;
    if (!ranges_follow) {
      std::vector<std::string> paths;
      for (const TierRun& run : tier_runs) paths.push_back(run.path);
      ExternalSorter<StateKey> merged(states_sort_options(), paths);
      return write_sorted(merged, out);
    }
    std::vector<std::byte> stored;
    for (const TierRun& run : tier_runs) {
      RunReader in(run.path);
      if (!out.can_take_blocks_of(in.info())) throw std::logic_error("bfs: a tier's run has another layout than the states run");
      for (const BlockInfo& b : in.info().blocks) in.read_stored_block(stored), out.append_stored_block(b, stored);
    }
  }

  void write_sorted(ExternalSorter<StateKey>& sorted, RunWriter& out) {
    StateKey k, prev = 0;
    for (bool first = true; sorted.next(k); first = false, prev = k) {
      if (!first && k <= prev) throw std::logic_error(game_.name() + ": state " + std::to_string(k) + " is enumerated twice");
      out.push(k);
    }
  }

  // Ply d: F_d and U_{d+1} from the successors of F_{d-1}. Returns |F_d|.
  std::uint64_t ply(std::uint32_t d, Counts& c) {
    std::uint64_t budget = opt_.memory_bytes > kPassOverhead ? opt_.memory_bytes - kPassOverhead : 0;
    if (!expansions_ && opt_.group_moves && d > 0 && game_.groups_share_moves()) {
      if (auto groups = UnvisitedFilter::all_groups(game_); groups && GroupExpansions::bytes_for(*groups) <= budget / 2)
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
    SortOptions so = sort_options(std::max<std::uint64_t>(budget, 24ull << 20));
    so.unique = true;
    ExternalSorter<StateKey> next(so);
    if (d == 0) next.push(game_.start());
    else expand(d - 1, next, c);
    next.sort();

    RunReader in(unvisited_path(d), IoOptions{}, /*decode_ahead=*/true);
    RunWriter out(unvisited_path(d + 1), key_run(opt_.block_bytes));
    RunWriter frontier(frontier_path(d), key_run(opt_.block_bytes));
    const std::uint64_t copied = merge(d, next, in, out, frontier);
    const RunInfo u = out.finish(), f = frontier.finish();
    if (d == 0 && f.record_count == 0) throw std::logic_error(game_.name() + ": the start state is not among the enumerated states");
    Progress::note("ply " + std::to_string(d) + ": " + std::to_string(f.record_count) + " new states; " +
                   std::to_string(next.size()) + " successors sorted, " + std::to_string(c.filtered) +
                   " dropped by the filter and " + std::to_string(c.keyless) + " left unkeyed so far; " + std::to_string(u.record_count) + " unvisited (" + std::to_string(copied) +
                   " in blocks copied untouched)");
    if (f.record_count == 0) {  // nothing new: F_{d-1} is the deepest ply, U_d what is never reached
      fs::remove(frontier_path(d));
      fs::remove(unvisited_path(d + 1));
      manifest_.record("done", {inspect_run(unvisited_path(d)), inspect_run(frontier_path(d - 1))}, c.json());
      forget_plies();
      return 0;
    }
    c.new_states.push_back(f.record_count);
    if (d > 0 && opt_.keep_plies) manifest_.record("kept-ply-" + std::to_string(d - 1), {inspect_run(frontier_path(d - 1))});
    manifest_.record("ply-" + std::to_string(d), {u, f}, c.json());
    if (d > 0) {
      manifest_.erase("ply-" + std::to_string(d - 1));
      if (!opt_.keep_plies) fs::remove(frontier_path(d - 1));
    }
    else manifest_.erase("states");
    fs::remove(unvisited_path(d));
    return f.record_count;
  }

  // The successors of F_p into `next`, on all threads; counts F_p's edges and terminal states.
  // With the group record, a batch is cut into runs of one group's states, each run expanded in
  // key order by one thread (the record's byte of a group has one writer).
  void expand(std::uint32_t p, ExternalSorter<StateKey>& next, Counts& c) {
    RunReader frontier(frontier_path(p));
    Progress bar("ply " + std::to_string(p + 1) + " successors", frontier.size());
    const int T = static_cast<int>(std::max(1u, opt_.threads));
    const bool expand_moves = p < opt_.max_ply;
    struct PerThread {
      std::vector<StateKey> keys;
      std::uint64_t edges = 0, ending = 0, terminal = 0, filtered = 0, keyless = 0;
      bool too_many_moves = false;
    };
    std::vector<PerThread> out(static_cast<std::size_t>(T));
    std::vector<StateKey> batch;
    std::vector<std::uint64_t> slots;
    std::vector<std::size_t> runs;  // batch[runs[r], runs[r + 1]) is one group's (or one state)
    for (;;) {
      batch.clear(), slots.clear(), runs.clear();
      StateKey s;
      while (batch.size() < kBatch && frontier.next(s)) {
        const std::uint64_t slot = expansions_ ? game_.group_slot(s) : batch.size();
        if (slots.empty() || slot != slots.back()) runs.push_back(batch.size());
        batch.push_back(s), slots.push_back(slot);
      }
      if (batch.empty()) break;
      runs.push_back(batch.size());
      const std::size_t run_count = runs.size() - 1;
#pragma omp parallel num_threads(T)
      {
        PerThread& mine = out[static_cast<std::size_t>(omp_get_thread_num())];
        std::vector<Child> kids;
#pragma omp for schedule(dynamic, 256)
        for (std::size_t r = 0; r < run_count; ++r)
          for (std::size_t i = runs[r]; i < runs[r + 1]; ++i) {
            if (game_.terminal_value(batch[i]).is_known()) {
              ++mine.terminal;
              if (!opt_.expand_decided) continue;
            }
            if (!expand_moves) continue;
            if (expansions_ && expansions_->covers(slots[i])) {
              const int lacked = game_.successors_skipping(batch[i], expansions_->taken(slots[i]), kids);
              if (lacked >= 64) mine.too_many_moves = true;  // reported after the parallel region
              else expansions_->expanded(slots[i], lacked);
            } else {
              game_.successors(batch[i], kids);
            }
            for (const Child& k : kids) {
              if (k.is_terminal()) {
                ++mine.ending;
                continue;
              }
              ++mine.edges;
              if (k.is_skipped()) ++mine.keyless;
              else if (filter_ && !filter_->may_be_unvisited(k.key)) ++mine.filtered;
              else mine.keys.push_back(k.key);
            }
          }
      }
      for (PerThread& t : out) {
        if (t.too_many_moves) throw std::logic_error(game_.name() + ": a group has 64 moves or more");
        for (StateKey k : t.keys) next.push(k);
        t.keys.clear();
        c.edges += t.edges, c.game_ending_moves += t.ending, c.terminal_states += t.terminal, c.filtered += t.filtered;
        c.keyless += t.keyless;
        t.edges = t.ending = t.terminal = t.filtered = t.keyless = 0;
      }
      bar.add(batch.size());
    }
  }

  // Merge-joins the sorted successors with U_d: found keys go to F_d, the rest to U_{d+1}.
  // Blocks of U_d that no successor reaches are copied as stored. Returns the states so copied.
  std::uint64_t merge(std::uint32_t d, ExternalSorter<StateKey>& next, RunReader& in, RunWriter& out, RunWriter& frontier) {
    std::uint64_t copied = 0;
    StateKey m = 0;
    bool has_m = next.next(m);
    Progress bar("ply " + std::to_string(d) + " merge", in.size());
    const bool copy_blocks = out.can_take_blocks_of(in.info());
    const auto& blocks = in.info().blocks;
    std::vector<std::byte> stored;
    for (;;) {
      while (copy_blocks && in.at_block_end() && in.next_block_index() < blocks.size()) {
        const std::size_t b = in.next_block_index();
        const StateKey end = b + 1 < blocks.size() ? blocks[b + 1].first_key : ~StateKey{0};
        while (has_m && m < blocks[b].first_key) has_m = next.next(m);  // to visited states
        in.will_copy_blocks_below(has_m ? std::optional<StateKey>(m) : std::nullopt);  // not decoded ahead
        if (has_m && m < end) break;
        if (out.pending_records() != 0 && out.pending_records() < out.block_records() / 2) break;  // blocks stay large
        in.read_stored_block(stored);
        out.append_stored_block(blocks[b], stored);
        if (filter_) filter_->copied_block(blocks[b].first_key);
        const std::uint64_t records = blocks[b].raw_bytes / sizeof(StateKey);
        copied += records;
        bar.add(records);
      }
      const void* span;
      const std::size_t n = in.next_span(&span, 1u << 16);
      if (n == 0) break;
      const auto* keys = static_cast<const StateKey*>(span);
      std::size_t kept_from = 0;  // keys[kept_from, i) stay unvisited: appended at once
      for (std::size_t i = 0; i < n; ++i) {
        while (has_m && m < keys[i]) has_m = next.next(m);
        const bool found = has_m && m == keys[i];
        if (filter_) filter_->decoded(keys, i, found);
        if (!found) continue;
        out.append_many(keys + kept_from, i - kept_from);
        kept_from = i + 1;
        frontier.push(keys[i]);
        has_m = next.next(m);
      }
      out.append_many(keys + kept_from, n - kept_from);
      bar.add(n);
    }
    if (filter_) filter_->end_of_run();
    bar.finish();
    return copied;
  }

  void forget_plies() {
    for (auto& s : manifest_.stages())
      if (s.rfind("ply-", 0) == 0) manifest_.erase(s);
  }

  BfsResult finished(const Counts& c, bool resumed) {
    BfsResult res;
    res.new_states = c.new_states;
    for (auto x : c.new_states) res.states += x;
    res.edges = c.edges, res.game_ending_moves = c.game_ending_moves, res.terminal_states = c.terminal_states;
    res.filtered = c.filtered;
    res.keyless = c.keyless;
    res.filter_bits = c.filter_bits;
    res.resumed = resumed;
    const std::string deepest = frontier_path(static_cast<std::uint32_t>(c.new_states.size() - 1));
    res.unreached_path = unvisited_path(static_cast<std::uint32_t>(c.new_states.size()));
    res.unreached = inspect_run(res.unreached_path).record_count;
    if (opt_.keep_plies)
      for (std::size_t p = 0; p < c.new_states.size(); ++p) res.ply_runs.push_back(frontier_path(static_cast<std::uint32_t>(p)));
    res.enumerated = res.states + res.unreached;
    RunReader last(deepest);
    StateKey s;
    while (res.deepest.size() < 3 && last.next(s)) res.deepest.push_back(s);
    return res;
  }

  const Game& game_;
  const BfsOptions& opt_;
  Manifest manifest_;
  std::unique_ptr<GroupExpansions> expansions_;
  std::unique_ptr<UnvisitedFilter> filter_;
};

}  // namespace

BfsResult search_unvisited(const Game& game, const BfsOptions& options) { return Search(game, options).run(); }

}  // namespace zermelo::bfs
