// Out-of-core breadth-first search; see include/zermelo/engine/bfs.hpp.
#include "zermelo/engine/bfs.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "pipeline/bfs_unvisited.hpp"
#include "pipeline/stage_name.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {
namespace {

RunOptions key_run() {
  RunOptions o;
  o.record_type = "bfs.key";
  o.record_size = 8;
  o.sort_key = "key asc";
  o.delta_u64_keys = true;
  return o;
}

}  // namespace

nlohmann::json bfs_identity(const Game& game, const BfsOptions& opt) {
  nlohmann::json id{{"game", game.name()}, {"variant", game.variant()}, {"max_ply", opt.max_ply}};
  if (opt.expand_decided)
    id["expand_decided"] = true;  // absent otherwise: earlier work dirs still resume
  if (opt.keep_plies) id["keep_plies"] = true;
  if (opt.shards > 1) id["shards"] = opt.shards;  // absent unsharded: earlier work dirs resume
  return id;
}

std::vector<StateKey> deepest_states(const std::string& deepest_run) {
  RunReader last(deepest_run);
  std::vector<StateKey> states;
  StateKey s;
  while (states.size() < 3 && last.next(s)) states.push_back(s);
  return states;
}

BfsPlyLookup::BfsPlyLookup(const std::vector<std::string>& ply_runs) {
  for (const std::string& path : ply_runs) runs_.push_back(std::make_unique<RunReader>(path));
}

std::optional<std::uint32_t> BfsPlyLookup::ply_of(StateKey key) {
  for (std::uint32_t ply = 0; ply < runs_.size(); ++ply) {
    const std::size_t n = runs_[ply]->info().blocks_starting_at_or_below(key);
    if (n == 0) continue;
    const std::vector<std::byte> bytes = runs_[ply]->read_block(n - 1);
    const auto* keys = reinterpret_cast<const StateKey*>(bytes.data());
    if (std::binary_search(keys, keys + bytes.size() / sizeof(StateKey), key)) return ply;
  }
  return std::nullopt;
}

namespace {

// The numbered stages: the last ply found, and a ply's frontier kept (BfsOptions::keep_plies).
constexpr NumberedName kPlyStage{"ply"}, kKeptPlyStage{"kept-ply"};

// The search over the run of visited states: ply d's stage records V_d and F_d.
class VisitedSearch {
 public:
  VisitedSearch(const Game& game, const BfsOptions& opt)
      : game_(game), opt_(opt), manifest_(opt.job_dir, "bfs", bfs_identity(game, opt)) {
    manifest_.describe("game", game_description(game));
  }

  BfsResult run() {
    std::uint32_t d = resume_or_start();
    while (next_ply(d)) ++d;
    return finished(d);
  }

 private:
  std::string visited_path(std::uint32_t d) const {
    return manifest_.path("visited-" + std::to_string(d) + ".run");
  }
  std::string frontier_path(std::uint32_t d) const {
    return manifest_.path("frontier-" + std::to_string(d) + ".run");
  }
  nlohmann::json counts() const {
    return {{"new_states", res_.new_states},
            {"edges", res_.edges},
            {"game_ending_moves", res_.game_ending_moves},
            {"terminal_states", res_.terminal_states}};
  }

  // The last finished ply, or ply 0 (the start state) recorded now.
  std::uint32_t resume_or_start() {
    std::optional<std::uint32_t> last;
    for (auto& s : manifest_.stages())
      if (const auto p = kPlyStage.read(s); p && manifest_.done(s))
        last = static_cast<std::uint32_t>(*p);
    if (last) {
      res_.resumed = true;
      auto f = manifest_.facts(kPlyStage.spell(*last));
      res_.new_states = f["new_states"].get<std::vector<std::uint64_t>>();
      res_.edges = f["edges"], res_.game_ending_moves = f["game_ending_moves"];
      res_.terminal_states = f["terminal_states"];
      return *last;
    }
    const StateKey s = game_.start();
    RunWriter v(visited_path(0), key_run()), fr(frontier_path(0), key_run());
    v.push(s), fr.push(s);
    res_.new_states = {1};
    manifest_.record(kPlyStage.spell(0), {v.finish(), fr.finish()}, counts());
    return 0;
  }

  SortOptions sort_options() const {
    SortOptions so;
    const std::uint64_t memory = opt_.memory_bytes;
    so.memory_bytes = memory > (64ull << 20) ? memory - (40ull << 20) : (24ull << 20);
    so.threads = opt_.threads;
    so.scratch_dir = opt_.job_dir + "/bfs.sort";
    return so;
  }

  // Ply d+1 from ply d; false when it has no new state (ply d's runs are the result).
  bool next_ply(std::uint32_t d) {
    ExternalSorter<std::uint64_t> next(sort_options());
    expand(d, next);
    if (next.size() == 0) return false;
    next.sort();
    RunWriter nv(visited_path(d + 1), key_run()), nf(frontier_path(d + 1), key_run());
    const std::uint64_t fresh = merge(d, next, nv, nf);
    if (fresh == 0) return false;
    res_.new_states.push_back(fresh);
    if (opt_.keep_plies)  // before ply d is forgotten
      manifest_.record(kKeptPlyStage.spell(d), {inspect_run(frontier_path(d))});
    manifest_.record(kPlyStage.spell(d + 1), {nv.finish(), nf.finish()}, counts());
    manifest_.erase(kPlyStage.spell(d));
    std::filesystem::remove(visited_path(d));
    if (!opt_.keep_plies) std::filesystem::remove(frontier_path(d));
    return true;
  }

  // The successors of F_d into `next`; its edges and terminal facts are counted here, once.
  void expand(std::uint32_t d, ExternalSorter<std::uint64_t>& next) {
    RunReader fr(frontier_path(d));
    Progress bar("bfs ply " + std::to_string(d + 1), fr.size());
    StateKey s;
    while (fr.next(s)) {
      const bool decided = game_.terminal_value(s).is_known();
      if (decided) ++res_.terminal_states;
      if ((!decided || opt_.expand_decided) && d < opt_.max_ply) {
        game_.successors(s, kids_);
        for (auto& c : kids_) {
          if (c.is_terminal())
            ++res_.game_ending_moves;
          else
            ++res_.edges, next.push(c.key);
        }
      }
      bar.add(1);
    }
  }

  // New = sorted unique successors not yet visited; visited' = visited ∪ new. Returns |new|.
  std::uint64_t merge(std::uint32_t d, ExternalSorter<std::uint64_t>& next, RunWriter& nv,
                      RunWriter& nf) {
    RunReader visited(visited_path(d));
    std::uint64_t v = 0, k, prev = 0, fresh = 0;
    bool has_v = visited.next(v), first = true;
    while (next.next(k)) {
      if (!first && k == prev) continue;
      first = false, prev = k;
      while (has_v && v < k) nv.push(v), has_v = visited.next(v);
      if (has_v && v == k) continue;
      nv.push(k), nf.push(k), ++fresh;
    }
    while (has_v) nv.push(v), has_v = visited.next(v);
    return fresh;
  }

  BfsResult finished(std::uint32_t d) {
    for (auto x : res_.new_states) res_.states += x;
    if (opt_.keep_plies)
      for (std::uint32_t p = 0; p <= d; ++p) res_.ply_runs.push_back(frontier_path(p));
    res_.visited_path = visited_path(d);
    res_.deepest = deepest_states(frontier_path(d));
    return res_;
  }

  const Game& game_;
  const BfsOptions& opt_;
  Manifest manifest_;
  BfsResult res_;
  std::vector<Child> kids_;
};

}  // namespace

BfsResult breadth_first(const Game& game, const BfsOptions& opt) {
  const bool ranks = opt.cluster && opt.cluster->ranks() > 1;
  if (ranks && opt.keep_plies)
    throw std::invalid_argument(
        "keeping the plies is for one process (each rank keeps its shards)");
  if (!opt.all_states && (opt.shards > 1 || ranks))
    throw std::invalid_argument("a sharded breadth-first search needs --all-states");
  BfsResult r = opt.all_states ? bfs::search_unvisited(game, opt) : VisitedSearch(game, opt).run();
  r.complete = opt.max_ply == UINT32_MAX || r.new_states.size() <= opt.max_ply;
  return r;
}

}  // namespace zermelo
