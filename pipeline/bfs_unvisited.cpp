// Breadth-first search over the run of unvisited states; see include/zermelo/engine/bfs.hpp.
//
// Step 1 enumerates every state into U_0 (bfs_enumerate.hpp; the runs: bfs_runs.hpp). Ply d
// takes the successors of F_{d-1} (the start for d = 0), drops those of visited groups (the
// filter), sorts them with repeats removed and merge-joins them with U_d: the keys found are F_d,
// the rest is U_{d+1}. Stage "ply-d" records U_{d+1} and F_d with the counts so far, so a killed
// search resumes at the ply after the last recorded one; stage "done" keeps the last frontier
// (the deepest states) and U, the states the start never reaches.
//
// Sharded (BfsOptions::shards, docs/shards.md), U_0 is cut into the solve's balanced key ranges
// (stage "shards") and each shard keeps its stretch of U_d and F_d in its folder. A ply's
// successors are routed to the shard that owns them (in this process's inboxes, or to another
// rank through the Cluster), and each shard sorts and merges its own, the shards at once. The
// stretches are the unsharded runs cut by key, so the plies are the same whatever the shards;
// stage "done" joins them back into the unsharded search's runs.
//
// Across MPI ranks (docs/distributed.md) step 1 has each rank walk a share of the states
// (bfs_rank_shares.hpp), so that no rank walks or holds every state, and stage "done" has rank 0
// gather every rank's stretches of the unreached run and of the deepest ply (bfs_gather.hpp), so
// that its runs and its result are the single process's.
#include "pipeline/bfs_unvisited.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "pipeline/bfs_enumerate.hpp"
#include "pipeline/bfs_gather.hpp"
#include "pipeline/bfs_rank_shares.hpp"
#include "pipeline/bfs_runs.hpp"
#include "pipeline/bfs_shards.hpp"
#include "pipeline/group_expansions.hpp"
#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/cluster_transport.hpp"
#include "pipeline/retrograde/parts_walk.hpp"
#include "pipeline/retrograde/shard_inboxes.hpp"
#include "pipeline/stage_name.hpp"
#include "pipeline/unvisited_filter.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::bfs {
namespace {
namespace fs = std::filesystem;
using Inboxes = retro::InboxesOf<StateKey>;
using Outboxes = retro::RouterOf<StateKey>;

// Readers, writers and slack held beside the sorter during a pass.
constexpr std::uint64_t kPassOverhead = 48ull << 20;
// The least memory a shard's inbox is given.
constexpr std::uint64_t kMinSorter = 24ull << 20;
// Frontier states expanded per parallel batch (their successors are buffered per thread).
constexpr std::size_t kBatch = 1u << 15;

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
      : game_(game),
        opt_(opt),
        manifest_(opt.job_dir, "bfs-all-states", bfs_identity(game, opt)),
        shards_(opt.job_dir, opt.shards, opt.cluster),
        filters_(shards_.local_count()) {
    manifest_.describe("game", game_description(game));
  }

  // Step 1 enumerates every state into U_0, cut into the shards; then ply after ply shrinks
  // U_d until a ply finds nothing new; what is left is never reached from the start.
  BfsResult run() {
    if (finished_everywhere()) return finished(Counts::from(manifest_.facts("done")), true);
    forget_damaged_stages(manifest_);   // a damaged ply: the search starts again
    std::uint32_t d = ply_to_resume();  // the ply to find next
    const bool resumed = d > 0;
    Counts c = resumed ? counts_of_ply(d - 1) : Counts{};
    if (!resumed) enumerate_every_state_into_shards();
    while (ply(d, c) > 0) ++d;
    return finished(c, resumed);
  }

 private:
  // The joined runs of the job directory (one shard: its own runs).
  std::string unvisited_path(std::uint32_t d) const { return manifest_.path(unvisited_name(d)); }
  std::string frontier_path(std::uint32_t d) const { return manifest_.path(frontier_name(d)); }

  // Stage "done" on every process (a process that recorded it alone goes back to its last ply,
  // whose runs it keeps until every process has recorded "done").
  bool finished_everywhere() {
    const bool here = manifest_.done("done");
    if (shards_.least(here ? 1 : 0) == 1) return true;
    if (here) manifest_.erase("done");
    return false;
  }

  // The ply after the last one every process recorded: a process ahead still has that one's
  // stage and runs (record_ply drops them only once every process has gone past).
  std::uint32_t ply_to_resume() const {
    std::uint32_t d = 0;
    for (auto& s : manifest_.stages())
      if (const auto p = kPlyStage.read(s); p && manifest_.done(s))
        d = std::max(d, static_cast<std::uint32_t>(*p) + 1);
    return static_cast<std::uint32_t>(shards_.least(d));
  }

  // The counts of ply `p`, the last one recorded, and the shards' ranges it recorded.
  Counts counts_of_ply(std::uint32_t p) {
    const nlohmann::json facts = manifest_.facts(kPlyStage.spell(p));
    if (shards_.count() > 1) shards_.read_ranges(facts);
    return Counts::from(facts);
  }

  // Step 1: U_0, every state of every tier, in the shards' stretches; across MPI ranks each
  // rank walks a share (bfs_rank_shares.hpp).
  void enumerate_every_state_into_shards() {
    if (shards_.clustered())
      return enumerate_own_shards(enumeration(), manifest_, shards_,
                                  inbox_options(sorters_budget(), /*unique=*/false), opt_.threads);
    enumerate_all();
    cut_into_shards();
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

  // Step 1's writer: tier runs in the job directory, its sort beside a pass.
  StatesEnumeration enumeration() const {
    const std::uint64_t sorter = opt_.memory_bytes > kPassOverhead + kMinSorter
                                     ? opt_.memory_bytes - kPassOverhead
                                     : kMinSorter;
    return StatesEnumeration(game_, opt_.job_dir, sort_options(sorter), opt_.block_bytes);
  }

  // Stage "states": U_0, every state of every tier, sorted, each tier's parts walked on every
  // thread (retro::parts_walk).
  void enumerate_all() {
    if (manifest_.done("states") || manifest_.done("shards")) return;
    const RunInfo info = enumeration().write(manifest_.path(unvisited_name(0)), [&](const Tier& t) {
      return retro::parts_walk(game_, t.name, 0, game_.enumeration_parts(t.name), opt_.threads);
    });
    manifest_.record("states", {info}, {{"states", info.record_count}});
  }

  // Stage "shards": U_0 cut into the shards' balanced key ranges, each shard's stretch in its
  // folder (one shard: U_0 is its run already).
  void cut_into_shards() {
    if (shards_.count() == 1) return;
    if (manifest_.done("shards")) return shards_.read_ranges(manifest_.facts("shards"));
    const std::string whole = manifest_.path(unvisited_name(0));
    shards_.set_ranges(retro::KeyRanges::balanced(whole, shards_.count()));
    const std::vector<RunInfo> cut =
        shards_.split(whole, unvisited_name(0), key_run(opt_.block_bytes));
    manifest_.record("shards", cut, {{"first_keys", shards_.ranges().first_keys()}});
    manifest_.erase("states");
    fs::remove(whole);
  }

  // A ply's outputs, shard by shard: U_{d+1} and F_d, and the states copied in untouched blocks.
  struct PlyRuns {
    explicit PlyRuns(unsigned shards) : unvisited(shards), frontiers(shards) {}
    std::vector<RunInfo> unvisited, frontiers;
    std::uint64_t copied = 0;
  };

  // Ply d: F_d and U_{d+1} from the successors of F_{d-1}, shard by shard. Returns |F_d|.
  std::uint64_t ply(std::uint32_t d, Counts& c) {
    // Step 1: the records beside the sorters (filters, moves a group took) and the inboxes.
    Inboxes inboxes(shards_.ids(), inbox_options(budget_beside_records(d, c)), opt_.threads);
    // Step 2: every successor of F_{d-1} (the start at ply 0) into its shard's inbox.
    const std::uint64_t sorted = send_successors(d, inboxes, c);
    // Step 3: the inboxes sorted, repeats removed, the shards at once.
    inboxes.sort();
    // Step 4: each shard's successors merge-joined with its U_d, the shards at once.
    const PlyRuns runs = merge_shards(d, inboxes);
    // Step 5: the ply recorded, or the search done when it found nothing.
    const std::uint64_t found = shards_.total(records(runs.frontiers));
    if (d == 0 && found == 0)
      throw std::logic_error(game_.name() + ": the start state is not among the enumerated states");
    report_ply(d, c, shards_.total(sorted), shards_.total(records(runs.unvisited)), found,
               shards_.total(runs.copied));
    if (found == 0) return record_done(d, c);
    c.new_states.push_back(found);
    record_ply(d, runs, c);
    return found;
  }

  // One sorter a shard this process holds, sharing the budget, spilling into the shard's folder.
  // `unique`: repeats removed (a ply's successors), or kept for the caller to refuse (step 1).
  std::vector<SortOptions> inbox_options(std::uint64_t budget, bool unique = true) const {
    std::vector<SortOptions> options;
    for (unsigned local = 0; local < shards_.local_count(); ++local) {
      SortOptions so =
          sort_options(std::max<std::uint64_t>(budget / shards_.local_count(), kMinSorter));
      so.unique = unique;
      so.threads = shards_.threads_each(opt_.threads);
      so.scratch_dir = shards_.path(local, "sort");
      options.push_back(so);
    }
    return options;
  }

  // What the inboxes of this process's shards share: --memory less the passes that run at once,
  // each with its readers and writers and an outbox a shard (memory_floor).
  std::uint64_t sorters_budget() const {
    const std::uint64_t passes =
        std::min(shards_.local_count(), std::max(1u, opt_.threads)) *
        (kPassOverhead + shards_.count() * std::uint64_t{Outboxes::outbox_bytes()});
    return opt_.memory_bytes > passes ? opt_.memory_bytes - passes : 0;
  }

  // The sorters' budget beside the group record and the filters, made here once a search when
  // the game numbers its groups and they fit in what the inboxes' least share leaves (so that
  // --memory stays a limit: check_memory made sure of that share).
  std::uint64_t budget_beside_records(std::uint32_t d, Counts& c) {
    std::uint64_t budget = sorters_budget();
    const std::uint64_t least = kMinSorter * shards_.local_count();
    const auto spare = [&] { return budget > least ? budget - least : 0; };
    if (!expansions_ && opt_.group_moves && d > 0 && game_.groups_share_moves()) {
      if (auto groups = UnvisitedFilter::all_groups(game_);
          groups && GroupExpansions::bytes_for(*groups) <= spare() / 2)
        expansions_ = std::make_unique<GroupExpansions>(*groups);
    }
    if (expansions_) budget -= expansions_->bytes();
    if (!filters_made_ && opt_.group_filter && d > 0) make_filters(d, spare() * 3 / 8);
    for (const auto& filter : filters_)
      if (filter) budget -= filter->bytes(), c.filter_bits = filter->bits_per_group();
    return budget;
  }

  // One filter a shard, from its U_d (a shard answers for its own keys only), the shards
  // splitting `budget`. Sharded, each spans only its keys' groups: the slots of a game's groups
  // are sparse (ostle-mini 4x4:p3: one bit a group over all of them is 700 MB), and P bitmaps
  // over all of them would not fit where one did.
  void make_filters(std::uint32_t d, std::uint64_t budget) {
    filters_made_ = true;
    const auto groups = UnvisitedFilter::all_groups(game_);
    if (!groups) return;
    shards_.for_each(opt_.threads, [&](unsigned local) {
      const std::string run = shards_.path(local, unvisited_name(d));
      const auto slots =
          shards_.count() == 1 ? groups : UnvisitedFilter::groups_of_run(game_, *groups, run);
      if (!slots) return;  // no state left to reach
      const unsigned bits =
          UnvisitedFilter::bits_that_fit(slots->size(), budget / shards_.local_count());
      if (bits > 0) filters_[local] = std::make_unique<UnvisitedFilter>(game_, *slots, bits, run);
    });
  }

  // False if the filter of the shard that owns `key` knows it visited (a shard of another
  // process, or one without a filter, cannot say).
  bool may_be_unvisited(StateKey key) const {
    const unsigned local = shards_.local_of(key);
    return local >= filters_.size() || !filters_[local] || filters_[local]->may_be_unvisited(key);
  }

  void report_ply(std::uint32_t d, const Counts& c, std::uint64_t sorted, std::uint64_t unvisited,
                  std::uint64_t found, std::uint64_t copied) {
    Progress::note("ply " + std::to_string(d) + ": " + std::to_string(found) + " new states; " +
                   std::to_string(sorted) + " successors sorted, " + std::to_string(c.filtered) +
                   " dropped by the filter and " + std::to_string(c.keyless) +
                   " left unkeyed so far; " + std::to_string(unvisited) + " unvisited (" +
                   std::to_string(copied) + " in blocks copied untouched)");
  }

  // The stage's facts: the counts, and the shards' key ranges (sharded only, so that an
  // unsharded search's facts stay as they were).
  nlohmann::json ply_facts(const Counts& c) const {
    nlohmann::json facts = c.json();
    if (shards_.count() > 1) facts["first_keys"] = shards_.ranges().first_keys();
    return facts;
  }

  // Nothing new at ply d: F_{d-1} is the deepest ply, U_d what is never reached. The shards' runs
  // are joined into the job directory's (across ranks, rank 0's), and dropped once every process
  // has recorded "done".
  std::uint64_t record_done(std::uint32_t d, const Counts& c) {
    for (const std::string& run : shards_.paths(frontier_name(d))) fs::remove(run);
    for (const std::string& run : shards_.paths(unvisited_name(d + 1))) fs::remove(run);
    if (shards_.clustered())
      gather_into_rank_0(d, c);
    else
      manifest_.record("done", {join(unvisited_name(d)), join(frontier_name(d - 1))}, c.json());
    shards_.total(0);  // every process has recorded "done"
    forget_plies();
    if (shards_.count() > 1)
      for (unsigned shard : shards_.ids())
        fs::remove_all(manifest_.path("shard-" + std::to_string(shard)));
    return 0;
  }

  // The shards' runs `name` joined into the job directory's run of that name.
  RunInfo join(const std::string& name) const {
    return shards_.join(name, manifest_.path(name), key_run(opt_.block_bytes));
  }

  // Stage "done" across ranks: rank 0 joins every rank's runs (bfs_gather.hpp) and records where
  // their states lay; the other ranks record none, their parts being rank 0's now.
  void gather_into_rank_0(std::uint32_t d, const Counts& c) {
    const auto gather = [&](const std::string& name) {
      return gather_to_root(shards_, name, manifest_.path(name), key_run(opt_.block_bytes));
    };
    const Gathered unreached = gather(unvisited_name(d)), deepest = gather(frontier_name(d - 1));
    nlohmann::json facts = c.json();
    if (shards_.cluster()->rank() > 0) return manifest_.record("done", {}, facts);
    facts["unreached_by_rank"] = unreached.by_rank, facts["deepest_by_rank"] = deepest.by_rank;
    manifest_.record("done", {unreached.run, deepest.run}, facts);
  }

  // Ply d's outputs (U_{d+1}, F_d) supersede ply d-1's, whose runs are dropped once every process
  // has recorded ply d.
  void record_ply(std::uint32_t d, const PlyRuns& runs, const Counts& c) {
    if (d > 0 && opt_.keep_plies)  // the shards' F_{d-1} joined into the job directory's
      manifest_.record(kKeptPlyStage.spell(d - 1), {join(frontier_name(d - 1))});
    std::vector<RunInfo> outputs = runs.unvisited;
    outputs.insert(outputs.end(), runs.frontiers.begin(), runs.frontiers.end());
    manifest_.record(kPlyStage.spell(d), outputs, ply_facts(c));
    shards_.total(0);  // every process has recorded ply d
    if (d > 0) {
      manifest_.erase(kPlyStage.spell(d - 1));
      const bool joined = shards_.count() > 1;  // kept in the job directory if kept at all
      if (!opt_.keep_plies || joined)
        for (const std::string& run : shards_.paths(frontier_name(d - 1))) fs::remove(run);
    } else {
      manifest_.erase("states"), manifest_.erase("shards");
    }
    for (const std::string& run : shards_.paths(unvisited_name(d))) fs::remove(run);
  }

  // What one thread's share of a batch gives, added to the counts after the batch.
  struct Expanded {
    std::vector<StateKey> keys;
    std::uint64_t edges = 0, ending = 0, terminal = 0, filtered = 0, keyless = 0;
    void add_counts(const Expanded& e) {
      edges += e.edges, ending += e.ending, terminal += e.terminal, filtered += e.filtered,
          keyless += e.keyless;
    }
  };

  // A batch of F_p: keys[runs[r], runs[r + 1]) is one group's states (or one state).
  struct Batch {
    std::vector<StateKey> keys;
    std::vector<std::uint64_t> slots;
    std::vector<std::size_t> runs;
    std::size_t run_count() const { return runs.size() - 1; }
  };

  // Step 2 through this process's inboxes, or across processes through the Cluster. Returns the
  // successors this process's shards received.
  std::uint64_t send_successors(std::uint32_t d, Inboxes& inboxes, Counts& c) {
    if (!shards_.clustered()) {
      send_successors_to(d, inboxes, c);
      return inboxes.size();
    }
    retro::ClusterTransportOf<StateKey> transport(*shards_.cluster(), shards_.count(), inboxes);
    send_successors_to(d, transport, c);
    transport.finish();
    return inboxes.size();
  }

  // Every shard's successors of its F_{d-1}, the shards at once; the counts summed over them
  // (and over the processes).
  void send_successors_to(std::uint32_t d, retro::TransportOf<StateKey>& transport, Counts& c) {
    if (d == 0) {  // the start, sent by the process that holds its shard
      if (shards_.local_of(game_.start()) >= shards_.local_count()) return;
      Outboxes out(shards_.ranges(), transport);
      out.send(game_.start());
      return out.flush();
    }
    std::vector<Expanded> counts(shards_.local_count());
    shards_.for_each(opt_.threads, [&](unsigned local) {
      Outboxes out(shards_.ranges(), transport);
      expand(local, d - 1, out, counts[local]);
      out.flush();
    });
    Expanded all;
    for (const Expanded& e : counts) all.add_counts(e);
    c.edges += shards_.total(all.edges), c.game_ending_moves += shards_.total(all.ending);
    c.terminal_states += shards_.total(all.terminal), c.filtered += shards_.total(all.filtered);
    c.keyless += shards_.total(all.keyless);
  }

  // The successors of a shard's F_p to their shards, on the shard's threads. With the group
  // record, a batch is cut into runs of one group's states, each run expanded in key order by
  // one thread (the record's byte of a group has one writer in a shard).
  void expand(unsigned local, std::uint32_t p, Outboxes& out, Expanded& counts) {
    RunReader frontier(shards_.path(local, frontier_name(p)));
    Progress bar("ply " + std::to_string(p + 1) + " successors" + shard_label(local),
                 frontier.size());
    const bool expand_moves = p < opt_.max_ply;
    const unsigned threads = shards_.threads_each(opt_.threads);
    std::vector<Expanded> mine(worker_count(threads));
    Batch b;
    while (next_batch(frontier, b)) {
      parallel_for<std::vector<Child>>(
          threads, b.run_count(), 256, [&](std::size_t t, std::size_t r, std::vector<Child>& kids) {
            for (std::size_t i = b.runs[r]; i < b.runs[r + 1]; ++i)
              expand_state(b.keys[i], b.slots[i], expand_moves, mine[t], kids);
          });
      for (Expanded& e : mine) {
        for (StateKey k : e.keys) out.send(k);
        counts.add_counts(e);
        e = Expanded{std::move(e.keys)};
        e.keys.clear();
      }
      bar.add(b.keys.size());
    }
  }

  std::string shard_label(unsigned local) const {
    return shards_.count() > 1 ? ", shard " + std::to_string(shards_.ids()[local]) : "";
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
      else if (!may_be_unvisited(k.key))
        ++mine.filtered;
      else
        mine.keys.push_back(k.key);
    }
  }

  // Step 4 on every shard at once: its sorted successors merge-joined with its U_d.
  PlyRuns merge_shards(std::uint32_t d, Inboxes& inboxes) {
    PlyRuns runs(shards_.local_count());
    std::vector<std::uint64_t> copied(shards_.local_count());
    shards_.for_each(opt_.threads, [&](unsigned local) {
      RunReader in(shards_.path(local, unvisited_name(d)), IoOptions{}, /*decode_ahead=*/true);
      RunWriter out(shards_.path(local, unvisited_name(d + 1)), key_run(opt_.block_bytes));
      RunWriter frontier(shards_.path(local, frontier_name(d)), key_run(opt_.block_bytes));
      copied[local] = merge("ply " + std::to_string(d) + " merge" + shard_label(local),
                            inboxes.of(local), in, out, frontier, filters_[local].get());
      runs.unvisited[local] = out.finish(), runs.frontiers[local] = frontier.finish();
    });
    for (std::uint64_t n : copied) runs.copied += n;
    return runs;
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
  std::uint64_t merge(const std::string& name, ExternalSorter<StateKey>& next, RunReader& in,
                      RunWriter& out, RunWriter& frontier, UnvisitedFilter* filter) {
    Successors succ{next};
    succ.advance();
    Progress bar(name, in.size());
    std::uint64_t copied = 0;
    std::vector<std::byte> stored;
    for (;;) {
      copied += copy_untouched_blocks(succ, in, out, stored, bar, filter);
      const void* span;
      const std::size_t n = in.next_span(&span, 1u << 16);
      if (n == 0) break;
      merge_span(static_cast<const StateKey*>(span), n, succ, out, frontier, filter);
      bar.add(n);
    }
    if (filter) filter->end_of_run();
    bar.finish();
    return copied;
  }

  // The blocks ahead that no successor reaches, copied as stored; returns their states.
  std::uint64_t copy_untouched_blocks(Successors& succ, RunReader& in, RunWriter& out,
                                      std::vector<std::byte>& stored, Progress& bar,
                                      UnvisitedFilter* filter) {
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
      if (filter) filter->copied_block(blocks[b].first_key);
      const std::uint64_t records = blocks[b].raw_bytes / sizeof(StateKey);
      copied += records;
      bar.add(records);
    }
    return copied;
  }

  // Decoded keys of U_d: those found go to F_d, runs of the others straight on to U_{d+1}.
  void merge_span(const StateKey* keys, std::size_t n, Successors& succ, RunWriter& out,
                  RunWriter& frontier, UnvisitedFilter* filter) {
    std::size_t kept_from = 0;  // keys[kept_from, i) stay unvisited: appended at once
    for (std::size_t i = 0; i < n; ++i) {
      while (succ.has && succ.m < keys[i]) succ.advance();
      const bool found = succ.has && succ.m == keys[i];
      if (filter) filter->decoded(keys, i, found);
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
    if (opt_.keep_plies)
      for (std::size_t p = 0; p < c.new_states.size(); ++p)
        res.ply_runs.push_back(frontier_path(static_cast<std::uint32_t>(p)));
    const bool holds_the_runs = !shards_.clustered() || shards_.cluster()->rank() == 0;
    if (holds_the_runs) {
      res.unreached = inspect_run(res.unreached_path).record_count;
      res.deepest = deepest_states(deepest);
    }
    if (shards_.clustered()) {  // rank 0 holds the joined runs: every rank returns its result
      const nlohmann::json whole = nlohmann::json::parse(shards_.cluster()->broadcast(
          nlohmann::json{{"unreached", res.unreached}, {"deepest", res.deepest}}.dump()));
      res.unreached = whole["unreached"].get<std::uint64_t>();
      res.deepest = whole["deepest"].get<std::vector<StateKey>>();
      if (!holds_the_runs) res.unreached_path.clear();
    }
    res.enumerated = res.states + res.unreached;
    return res;
  }

  const Game& game_;
  const BfsOptions& opt_;
  Manifest manifest_;
  Shards shards_;
  std::unique_ptr<GroupExpansions> expansions_;
  std::vector<std::unique_ptr<UnvisitedFilter>> filters_;  // one a local shard, if made
  bool filters_made_ = false;
};

}  // namespace

MemoryFloor memory_floor(const BfsOptions& opt) {
  MemoryFloor f;
  f.shards = std::max(1u, opt.shards);
  const unsigned ranks = opt.cluster ? std::max(1u, opt.cluster->ranks()) : 1;
  f.shards_a_process = std::max(1u, (f.shards + ranks - 1) / ranks);  // the busiest rank's
  f.at_once = std::min(f.shards_a_process, std::max(1u, opt.threads));
  // A ply: the passes at once, each with an outbox a shard, beside an inbox a shard.
  const std::uint64_t ply = f.at_once * (kPassOverhead + f.shards * Outboxes::outbox_bytes()) +
                            f.shards_a_process * kMinSorter;
  // Step 1: the sort beside its pass; one process cutting U_0 writes a run a shard at once.
  const std::uint64_t cut =
      ranks == 1 && f.shards > 1 ? f.shards * RunWriter::memory_bytes(key_run(opt.block_bytes)) : 0;
  f.bytes = std::max(ply, kPassOverhead + kMinSorter + cut);
  return f;
}

void check_memory(const BfsOptions& opt) {
  const MemoryFloor f = memory_floor(opt);
  if (opt.memory_bytes >= f.bytes) return;
  const std::string memory = "--memory " + format_size_argument(opt.memory_bytes);
  if (f.shards == 1)
    throw std::invalid_argument(memory + " is below the breadth-first search's floor (" +
                                format_size_argument(f.bytes) + ")");
  const bool ranks = f.shards_a_process < f.shards;
  throw std::invalid_argument(
      memory + " is below the " + format_size_argument(f.bytes) + " that " +
      std::to_string(f.shards) + " shards need" +
      (ranks ? ", " + std::to_string(f.shards_a_process) + " on a rank" : std::string()) + ", " +
      std::to_string(f.at_once) + " at once (give more memory or fewer shards" +
      (ranks ? "; --memory is each rank's" : "") + ")");
}

BfsResult search_unvisited(const Game& game, const BfsOptions& options) {
  check_memory(options);  // before any file is made
  return Search(game, options).run();
}

}  // namespace zermelo::bfs
