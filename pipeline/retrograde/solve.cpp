// The out-of-core solve, one step a call (steps.hpp), and the engine's entry point, which picks
// it or the in-RAM solver. See include/zermelo/engine/retrograde.hpp for the algorithm.
#include <string>

#include "pipeline/retrograde/shard_budget.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/pipeline/solved_database.hpp"

namespace zermelo {
namespace retro {
namespace {

SolveResult solve_out_of_core(const Game& game, const SolveOptions& opt) {
  SolveState s(game, opt);
  if (finished_before(s)) {  // Step 0: answer from the manifest
    drop_working_runs(s);    // a kill right after "final" may have left some
    return recorded_result(s, true);
  }
  forget_damaged_stages(s.manifest);  // a damaged level: levels start again from S_0
  bool resumed = scan_done(s);
  enumerate_states(s, !resumed);                     // Step 1: keys.run (every rank takes part)
  if (!resumed) join_scan_parts(s, scan_states(s));  // Steps 2 and 3: S_0, scheduled, edges
  std::uint32_t d = first_level_to_run(s);           // Step 4: after the last recorded level
  resumed = resumed || d > 0;
  while (solve_level(s, d) > 0 || d < s.max_scheduled) ++d;  // Step 5: to the fixpoint
  write_values(s, d + 1);  // Step 6: the values run, stage "final"
  drop_working_runs(s);    // Step 7
  return recorded_result(s, resumed);
}

}  // namespace
}  // namespace retro

// retrograde_ram.cpp
SolveResult solve_retrograde_in_ram(const Game& game, const SolveOptions& opt);

// The in-RAM solver's result, recorded in a manifest like the out-of-core one's, so that readers
// of the work dir are bound to it the same way (and a finished solve is not redone).
SolveResult solve_in_ram_recorded(const Game& game, const SolveOptions& opt) {
  Manifest manifest(opt.job_dir, "retrograde", retrograde_identity(game, opt));
  manifest.describe("game", game_description(game));
  const std::string values = manifest.path(values_run_name(opt.tier));
  const std::string final_stage = retro::Stage::final().name();
  if (manifest.done(final_stage))
    return result_from_final(manifest.facts(final_stage), values, true);
  SolveResult r = solve_retrograde_in_ram(game, opt);
  manifest.record(final_stage, {inspect_run(r.values_path)}, final_facts(r));
  return r;
}

SolveResult solve_retrograde(const Game& game, const SolveOptions& opt) {
  if (!opt.in_ram) retro::ShardBudget(opt).check();  // before any file is made
  SolveResult r =
      opt.in_ram ? solve_in_ram_recorded(game, opt) : retro::solve_out_of_core(game, opt);
  r.tier = opt.tier;
  r.in_ram = opt.in_ram;
  return r;
}

std::vector<KeyValue> load_values(const std::string& path) {
  RunReader r(path);
  std::vector<KeyValue> v(r.size());
  for (auto& kv : v) r.next(kv);
  return v;
}

}  // namespace zermelo
