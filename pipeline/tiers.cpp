// Solving a game tier by tier (see solve_tiers in retrograde.hpp).
#include <set>
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

// The tiers `tier` reads, directly or through others, bottom-up (in the order of Game::tiers).
static std::vector<std::string> tiers_below(const Game& game, const std::string& tier) {
  const std::vector<Tier> all = game.tiers();
  std::set<std::string> needed;
  for (auto t = all.rbegin(); t != all.rend(); ++t)  // dependencies come before their dependants
    if (t->name == tier || needed.count(t->name)) needed.insert(t->depends_on.begin(), t->depends_on.end());
  std::vector<std::string> out;
  for (auto& t : all)
    if (needed.count(t.name)) out.push_back(t.name);
  return out;
}

std::vector<SolveResult> solve_tiers(const Game& game, const SolveOptions& base, const std::string& tier) {
  auto solve = [&](const std::string& t) {
    SolveOptions o = base;
    o.tier = t;
    o.lower_tier_values = tier_dependencies_values(game, base.job_dir, t);
    o.job_dir = tier_job_dir(game, base.job_dir, t);
    return solve_retrograde(game, o);
  };
  std::vector<SolveResult> out;
  if (tier == "all" && !single_tier(game)) {
    for (auto& t : game.tiers()) out.push_back(solve(t.name));
    return out;
  }
  tier_dependencies_values(game, base.job_dir, tier);  // an unknown tier's error before any work
  // One tier: the tiers it reads are solved first where they are missing (finished ones are
  // skipped at once), so that an endgame table is one command; only its own result is returned.
  for (auto& below : tiers_below(game, tier)) solve(below);
  out.push_back(solve(tier));
  return out;
}

}  // namespace zermelo
