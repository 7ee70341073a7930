#include "zermelo/engine/tally.hpp"

#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {

std::map<std::string, TierTally> tally_tiers(const Game& game, const std::string& run_path,
                                             std::size_t examples_per_tier) {
  RunReader in(run_path, IoOptions{}, /*decode_ahead=*/true);
  const RunOptions& o = in.info().options;
  if (o.record_type != "bfs.key" || o.record_size != sizeof(StateKey))
    throw RunFileError(run_path + ": not a run of state keys (record type '" + o.record_type +
                       "', " + std::to_string(o.record_size) +
                       "-byte records; expected 'bfs.key', 8-byte records)");
  std::map<std::string, TierTally> tally;
  Progress bar("tally " + run_path, in.size());
  // Keys of one tier come in long stretches in every game with tiered key ranges, so the map is
  // looked up only when the tier changes.
  std::string tier;
  TierTally* current = nullptr;
  const void* p;
  std::size_t n;
  while ((n = in.next_span(&p, SIZE_MAX)) > 0) {
    const auto* keys = static_cast<const StateKey*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      std::string t = game.tier_of(keys[i]);
      if (!current || t != tier) tier = std::move(t), current = &tally[tier];
      ++current->states;
      if (current->examples.size() < examples_per_tier) current->examples.push_back(keys[i]);
    }
    bar.add(n, n * sizeof(StateKey));
  }
  return tally;
}

}  // namespace zermelo
