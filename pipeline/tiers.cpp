// Solving a game tier by tier (see solve_tiers in retrograde.hpp).
#include <stdexcept>

#include "zermelo/engine/retrograde.hpp"

namespace zermelo {

static bool single_tier(const Game& g) {
  auto t = g.tiers();
  return t.size() == 1 && t[0].name == "all";
}

std::string tier_job_dir(const Game& game, const std::string& job_dir, const std::string& tier) {
  return single_tier(game) ? job_dir : job_dir + "/" + tier;
}

std::string tier_values_path(const Game& game, const std::string& job_dir, const std::string& tier) {
  return tier_job_dir(game, job_dir, tier) + "/values-" + tier + ".run";
}

std::vector<std::string> tier_dependencies_values(const Game& game, const std::string& job_dir, const std::string& tier) {
  for (auto& t : game.tiers())
    if (t.name == tier) {
      std::vector<std::string> out;
      for (auto& dep : t.depends_on) out.push_back(tier_values_path(game, job_dir, dep));
      return out;
    }
  if (tier == "all" && single_tier(game)) return {};
  std::string known;
  for (auto& t : game.tiers()) known += (known.empty() ? "" : ", ") + t.name;
  throw std::invalid_argument(game.name() + ": no tier '" + tier + "' (tiers: " + known + ")");
}

std::vector<SolveResult> solve_tiers(const Game& game, const SolveOptions& base, const std::string& tier) {
  std::vector<std::string> todo;
  if (tier == "all" && !single_tier(game))
    for (auto& t : game.tiers()) todo.push_back(t.name);
  else
    todo.push_back(tier);
  std::vector<SolveResult> out;
  for (auto& t : todo) {
    SolveOptions o = base;
    o.tier = t;
    o.lower_tier_values = tier_dependencies_values(game, base.job_dir, t);
    o.job_dir = tier_job_dir(game, base.job_dir, t);
    out.push_back(solve_retrograde(game, o));
  }
  return out;
}

}  // namespace zermelo
