// Solving a game tier by tier (see solve_tiers in retrograde.hpp).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "pipeline/solve_record.hpp"
#include "pipeline/values_to_every_rank.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo {

static bool single_tier(const Game& g) {
  auto t = g.tiers();
  return t.size() == 1 && t[0].name == "all";
}

std::string tier_job_dir(const Game& game, const std::string& job_dir, const std::string& tier) {
  return single_tier(game) ? job_dir : job_dir + "/" + tier;
}

std::string tier_values_path(const Game& game, const std::string& job_dir,
                             const std::string& tier) {
  return tier_job_dir(game, job_dir, tier) + "/" + values_run_name(tier);
}

std::vector<std::string> tier_dependencies_values(const Game& game, const std::string& job_dir,
                                                  const std::string& tier) {
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
    if (t->name == tier || needed.count(t->name))
      needed.insert(t->depends_on.begin(), t->depends_on.end());
  std::vector<std::string> out;
  for (auto& t : all)
    if (needed.count(t.name)) out.push_back(t.name);
  return out;
}

// A tiered game's work dir has a manifest of its own, job "solve": the game as readers make it
// again and, a stage a tier ("tier-<T>"), each finished tier's values run, so that readers and
// `verify DIR` find every tier from the top and a copied-over values run is refused.
static std::unique_ptr<Manifest> tiered_job_manifest(const Game& game, const std::string& dir) {
  if (single_tier(game)) return nullptr;  // the tier's own manifest is the work dir's
  auto m = std::make_unique<Manifest>(
      dir, "solve", nlohmann::json{{"game", game.name()}, {"variant", game.variant()}});
  m->describe("game", game_description(game));
  return m;
}

// Disk a solve needs at its peak, a state: Ostle's whole game peaked at 2.0 bytes a state (25.6 GB
// for 12.9e9 states, bench/RESULTS.md); twice that, as an estimate that errs on the safe side.
constexpr std::uint64_t kPeakDiskBytesPerState = 4;

// A solve that cannot fit is refused before any work, when the game can count its states.
static void refuse_what_cannot_fit(const Game& game, const SolveOptions& o,
                                   const std::vector<std::string>& tiers) {
  std::uint64_t states = 0;
  for (auto& t : tiers) {
    if (std::filesystem::exists(tier_values_path(game, o.job_dir, t))) continue;  // solved already
    const std::optional<std::uint64_t> n = game.count_states(t);
    if (!n) return;
    states = *n > UINT64_MAX - states ? UINT64_MAX : states + *n;
  }
  std::string what = game.name();
  for (auto& option : game.options()) what += " " + option;
  what += ": " + std::to_string(states) + " states";
  if (o.max_states > 0 && states > o.max_states)
    throw std::invalid_argument(what + ", more than --max-states " + std::to_string(o.max_states));
  std::filesystem::create_directories(o.job_dir);
  const std::uint64_t free = std::filesystem::space(o.job_dir).available;
  const double need = static_cast<double>(states) * kPeakDiskBytesPerState;
  if (need > static_cast<double>(free))
    throw std::invalid_argument(what + " need about " + format_bytes(need) +
                                " of disk at the peak (" + std::to_string(kPeakDiskBytesPerState) +
                                " bytes a state), and " + o.job_dir + " has " +
                                format_bytes(static_cast<double>(free)) + " free");
}

std::vector<SolveResult> solve_tiers(const Game& game, const SolveOptions& base,
                                     const std::string& tier) {
  const bool every_tier = tier == "all" && !single_tier(game);
  if (!every_tier)
    tier_dependencies_values(game, base.job_dir, tier);  // an unknown tier's error first
  std::vector<std::string> to_solve;
  if (every_tier)
    for (auto& t : game.tiers()) to_solve.push_back(t.name);
  else
    to_solve = tiers_below(game, tier), to_solve.push_back(tier);
  refuse_what_cannot_fit(game, base, to_solve);
  std::unique_ptr<Manifest> root = tiered_job_manifest(game, base.job_dir);
  auto solve = [&](const std::string& t) {
    SolveOptions o = base;
    o.tier = t;
    o.lower_tier_values = tier_dependencies_values(game, base.job_dir, t);
    o.job_dir = tier_job_dir(game, base.job_dir, t);
    SolveResult r = solve_retrograde(game, o);
    // Under MPI only rank 0 wrote the values run; the tiers above read it on every rank.
    if (root && base.cluster) copy_values_to_every_rank(*base.cluster, r.values_path, r.digest);
    if (root && !root->done("tier-" + t)) root->record("tier-" + t, {inspect_run(r.values_path)});
    return r;
  };
  std::vector<SolveResult> out;
  if (every_tier) {
    for (auto& t : game.tiers()) out.push_back(solve(t.name));
    return out;
  }
  // One tier: the tiers it reads are solved first where they are missing (finished ones are
  // skipped at once), so that an endgame table is one command; only its own result is returned.
  for (auto& below : tiers_below(game, tier)) solve(below);
  out.push_back(solve(tier));
  return out;
}

}  // namespace zermelo
