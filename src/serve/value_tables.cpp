// Tables read back from manifests (value_tables.hpp).
#include "zermelo/serve/value_tables.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "zermelo/pipeline/manifest.hpp"

namespace zermelo {

std::vector<TierTable> tier_tables(const SolvedDatabase& db) {
  std::vector<TierTable> out;
  for (const std::string& tier : db.tiers()) {
    // A tier's values run sits in its own job directory, next to the manifest that made it.
    const std::string dir = std::filesystem::path(db.values(tier)).parent_path().string();
    const nlohmann::json doc = read_manifest(dir.empty() ? "." : dir, true);
    for (auto& stage : doc["stages"]) {
      if (stage.value("name", "") != "final" || !stage.contains("facts")) continue;
      const nlohmann::json& f = stage["facts"];
      if (!f.is_object() || !f.contains("by_plies")) continue;
      TierTable t;
      t.tier = tier;
      t.states = f.value("states", std::uint64_t{0}), t.wins = f.value("wins", std::uint64_t{0});
      t.losses = f.value("losses", std::uint64_t{0}), t.draws = f.value("draws", std::uint64_t{0});
      for (auto& [plies, count] : f["by_plies"].items())
        t.by_plies[static_cast<std::uint32_t>(std::stoul(plies))] = count.get<std::uint64_t>();
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<std::uint64_t> bfs_levels(const std::string& bfs_dir, const Game& game) {
  const nlohmann::json doc = read_manifest(bfs_dir, true);
  if (doc.value("job", "") != "bfs")
    throw std::runtime_error(bfs_dir + " holds a '" + doc.value("job", "") +
                             "' job, not a breadth-first search");
  const nlohmann::json& params = doc["params"];
  if (params.value("game", "") != game.name() || params.value("variant", "") != game.variant())
    throw std::runtime_error(bfs_dir + " holds a search of " + params.value("game", "?") + " " +
                             params.value("variant", "") + ", not of " + game.name() + " " +
                             game.variant());
  std::vector<std::uint64_t> levels;
  for (auto& stage : doc["stages"]) {
    const nlohmann::json& facts = stage.contains("facts") ? stage["facts"] : nlohmann::json();
    if (facts.is_object() && facts.contains("new_states"))
      levels = facts["new_states"].get<std::vector<std::uint64_t>>();
  }
  if (levels.empty())
    throw std::runtime_error(bfs_dir + ": the breadth-first search has not finished a ply yet");
  return levels;
}

}  // namespace zermelo
