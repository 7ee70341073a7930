// Out-of-core breadth-first search; see include/zermelo/engine/bfs.hpp.
#include "zermelo/engine/bfs.hpp"

#include <algorithm>
#include <filesystem>

#include "pipeline/bfs_unvisited.hpp"
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
  if (opt.expand_decided) id["expand_decided"] = true;  // absent otherwise: earlier work dirs still resume
  if (opt.keep_plies) id["keep_plies"] = true;
  return id;
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

BfsResult breadth_first(const Game& game, const BfsOptions& opt) {
  if (opt.all_states) return bfs::search_unvisited(game, opt);
  Manifest manifest(opt.job_dir, "bfs", bfs_identity(game, opt));
  manifest.describe("game", game_description(game));
  auto visited_path = [&](std::uint32_t d) { return manifest.path("visited-" + std::to_string(d) + ".run"); };
  auto frontier_path = [&](std::uint32_t d) { return manifest.path("frontier-" + std::to_string(d) + ".run"); };
  auto stage = [](std::uint32_t d) { return "ply-" + std::to_string(d); };
  BfsResult res;

  // Resume at the last finished ply, or start from the start state.
  std::uint32_t d = 0;
  bool found = false;
  for (auto& s : manifest.stages())
    if (s.rfind("ply-", 0) == 0 && manifest.done(s)) d = static_cast<std::uint32_t>(std::stoul(s.substr(4))), found = true;
  if (found) {
    res.resumed = true;
    auto f = manifest.facts(stage(d));
    res.new_states = f["new_states"].get<std::vector<std::uint64_t>>();
    res.edges = f["edges"], res.game_ending_moves = f["game_ending_moves"], res.terminal_states = f["terminal_states"];
  } else {
    StateKey s = game.start();
    RunWriter v(visited_path(0), key_run()), fr(frontier_path(0), key_run());
    v.push(s), fr.push(s);
    res.new_states = {1};
    manifest.record(stage(0), {v.finish(), fr.finish()},
                    {{"new_states", res.new_states}, {"edges", 0}, {"game_ending_moves", 0}, {"terminal_states", 0}});
  }

  SortOptions so;
  so.memory_bytes = opt.memory_bytes > (64ull << 20) ? opt.memory_bytes - (40ull << 20) : (24ull << 20);
  so.threads = opt.threads;
  so.scratch_dir = opt.job_dir + "/bfs.sort";
  std::vector<Child> kids;
  for (;; ++d) {
    // Expand the frontier (its edges and terminal facts are counted here, once per state).
    ExternalSorter<std::uint64_t> next(so);
    {
      RunReader fr(frontier_path(d));
      Progress bar("bfs ply " + std::to_string(d + 1), fr.size());
      StateKey s;
      while (fr.next(s)) {
        const bool decided = game.terminal_value(s).is_known();
        if (decided) ++res.terminal_states;
        if ((!decided || opt.expand_decided) && d < opt.max_ply) {
          game.successors(s, kids);
          for (auto& c : kids) {
            if (c.is_terminal()) ++res.game_ending_moves;
            else ++res.edges, next.push(c.key);
          }
        }
        bar.add(1);
      }
    }
    if (next.size() == 0) break;
    next.sort();
    // New = sorted unique successors not yet visited; visited' = visited ∪ new.
    RunReader visited(visited_path(d));
    RunWriter nv(visited_path(d + 1), key_run()), nf(frontier_path(d + 1), key_run());
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
    if (fresh == 0) {
      // Nothing new: the search is over; keep ply d's runs as the result.
      break;
    }
    res.new_states.push_back(fresh);
    if (opt.keep_plies) manifest.record("kept-" + stage(d), {inspect_run(frontier_path(d))});  // before ply d is forgotten
    manifest.record(stage(d + 1), {nv.finish(), nf.finish()},
                    {{"new_states", res.new_states}, {"edges", res.edges}, {"game_ending_moves", res.game_ending_moves},
                     {"terminal_states", res.terminal_states}});
    manifest.erase(stage(d));
    std::filesystem::remove(visited_path(d));
    if (!opt.keep_plies) std::filesystem::remove(frontier_path(d));
  }
  for (auto x : res.new_states) res.states += x;
  if (opt.keep_plies)
    for (std::uint32_t p = 0; p <= d; ++p) res.ply_runs.push_back(frontier_path(p));
  res.visited_path = visited_path(d);
  RunReader last(frontier_path(d));
  StateKey s;
  while (res.deepest.size() < 3 && last.next(s)) res.deepest.push_back(s);
  return res;
}

}  // namespace zermelo
