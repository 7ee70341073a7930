// Steps 0, 4 and 7: what the manifest says of an earlier run. A finished solve answers from
// stage "final" (step 0); an interrupted one continues after its last recorded level (step 4);
// a finished one keeps only its values run and its manifest (step 7).
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"

namespace zermelo::retro {

bool finished_before(SolveState& s) { return s.done(Stage::final()); }

SolveResult recorded_result(SolveState& s, bool resumed) {
  return result_from_final(s.facts(Stage::final()), s.files.values(s.opt.tier), resumed);
}

bool scan_done(const SolveState& s) {
  if (!s.done(Stage::scan())) return false;
  if (s.done(Stage::initial_states())) return true;
  const std::vector<Stage> stages = s.stages();
  return std::any_of(stages.begin(), stages.end(),
                     [&](const Stage& st) { return st.kind == Stage::Kind::level && s.done(st); });
}

namespace {

// A level recorded, a kill, and its decided run not yet: the shards' frontiers of `d`, if all
// are there.
std::optional<std::vector<RunInfo>> unlisted_frontiers(const SolveState& s, std::uint32_t d) {
  std::vector<RunInfo> frontiers;
  std::uint64_t records = 0;
  for (const Layout& files : s.shard_files) {
    const std::string frontier = files.path(Run::frontier, d);
    if (!std::filesystem::exists(frontier)) return std::nullopt;
    frontiers.push_back(inspect_run(frontier));
    records += frontiers.back().record_count;
  }
  if (records == 0) return std::nullopt;
  return frontiers;
}

}  // namespace

std::uint32_t first_level_to_run(SolveState& s) {
  const nlohmann::json scan = s.facts(Stage::scan());
  s.max_scheduled = scan.at("max_scheduled_level");
  if (s.shards() > 1)
    s.ranges = KeyRanges(scan.at("shard_first_keys").get<std::vector<std::uint64_t>>());
  std::uint32_t d = 0;
  for (const Stage& st : s.stages())
    if (st.kind == Stage::Kind::level && s.done(st)) d = std::max(d, st.d() + 1);
  if (d == 0) return 0;
  const nlohmann::json last = s.facts(Stage::level(d - 1));
  s.copied_total = last.value("copied_total", std::uint64_t{0});
  s.filtered_total = last.value("filtered_total", std::uint64_t{0});
  // A kill between recording a level and its decided run: list the decided run now.
  if (!s.done(Stage::decided(d)))
    if (const auto frontiers = unlisted_frontiers(s, d)) s.record(Stage::decided(d), *frontiers);
  return d;
}

void drop_working_runs(SolveState& s) {
  for (const std::string& stage : s.manifest.stages())
    if (stage != Stage::final().name()) s.manifest.erase(stage);
  s.files.remove_working_files();
}

}  // namespace zermelo::retro
