// Step 1 of the breadth-first search over all states (bfs_enumerate.hpp).
#include "pipeline/bfs_enumerate.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "pipeline/bfs_runs.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::bfs {

// A tier's states written in key order, and the range of keys they cover.
struct StatesEnumeration::TierRun {
  std::string path;
  StateKey first = 0, last = 0;
  std::uint64_t count = 0;
};

RunInfo StatesEnumeration::write(const std::string& path, const WalkOf& walk_of) const {
  std::vector<TierRun> tier_runs;
  std::unique_ptr<ExternalSorter<StateKey>> sorted;
  if (!game_.enumerates_in_key_order()) sorted = std::make_unique<ExternalSorter<StateKey>>(sort_);
  for (const Tier& t : game_.tiers()) {
    Progress bar("enumerate " + t.name);
    const retro::StateWalk walk = walk_of(t);
    if (sorted)
      walk([&](StateKey k) { sorted->push(k), bar.add(1); });
    else
      write_walked(tier_runs, t, walk, bar);
  }
  RunWriter out(path, key_run(block_bytes_));
  if (sorted)
    sorted->sort(), write_sorted(game_, *sorted, out);
  else
    write_states(tier_runs, out);
  RunInfo info = out.finish();
  sorted.reset();
  for (const TierRun& run : tier_runs) std::filesystem::remove(run.path);
  return info;
}

// Tier `t`'s states, walked in key order, into a run of their own (none if it has none).
void StatesEnumeration::write_walked(std::vector<TierRun>& tier_runs, const Tier& t,
                                     const retro::StateWalk& walk, Progress& bar) const {
  TierRun run{scratch_dir_ + "/states-" + std::to_string(tier_runs.size()) + ".run"};
  RunWriter w(run.path, key_run(block_bytes_));
  walk([&](StateKey k) {
    if (run.count > 0 && k <= run.last)
      throw std::logic_error(game_.name() + ": tier " + t.name + " enumerates state " +
                             std::to_string(k) + " out of key order or twice");
    if (run.count++ == 0) run.first = k;
    run.last = k;
    w.push(k), bar.add(1);
  });
  w.finish();
  if (run.count == 0)
    std::filesystem::remove(run.path);
  else
    tier_runs.push_back(run);
}

// Tiers whose key ranges follow one another (Ostle's, by material) are joined block by block as
// stored, neither decoded nor encoded again; others are merged.
void StatesEnumeration::write_states(std::vector<TierRun>& tier_runs, RunWriter& out) const {
  std::sort(tier_runs.begin(), tier_runs.end(),
            [](const TierRun& a, const TierRun& b) { return a.first < b.first; });
  bool ranges_follow = true;
  for (std::size_t i = 1; i < tier_runs.size(); ++i)
    ranges_follow = ranges_follow && tier_runs[i - 1].last < tier_runs[i].first;
  if (!ranges_follow) {
    std::vector<std::string> paths;
    for (const TierRun& run : tier_runs) paths.push_back(run.path);
    ExternalSorter<StateKey> merged(sort_, paths);
    return write_sorted(game_, merged, out);
  }
  for (const TierRun& run : tier_runs) append_stored(run.path, out);
}

void write_sorted(const Game& game, ExternalSorter<StateKey>& sorted, RunWriter& out) {
  StateKey k, prev = 0;
  for (bool first = true; sorted.next(k); first = false, prev = k) {
    if (!first && k <= prev)
      throw std::logic_error(game.name() + ": state " + std::to_string(k) + " is enumerated twice");
    out.push(k);
  }
}

}  // namespace zermelo::bfs
