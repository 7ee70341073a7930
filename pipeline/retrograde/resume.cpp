// Steps 0, 4 and 7: what the manifest says of an earlier run. A finished solve answers from
// stage "final" (step 0); an interrupted one continues after its last recorded level (step 4);
// a finished one keeps only its values run and its manifest (step 7).
//
// Under MPI every rank reads its own manifest, and a kill can fall between two ranks' records of
// the same stage. The ranks then agree before going on: rank 0, which holds the values run,
// decides whether the job is finished, and the levels resume at the least level of all ranks,
// a rank a level ahead undoing it (its inputs are kept until every rank has recorded it).
#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "zermelo/engine/cluster.hpp"

namespace zermelo::retro {

namespace {

// Rank 0's "final" facts with the values run's digest, which the other ranks record; empty if
// rank 0 has not finished (or on any other rank).
std::string root_final(const SolveState& s) {
  if (s.opt.cluster->rank() != 0 || !s.done(Stage::final())) return {};
  nlohmann::json facts = s.facts(Stage::final());
  facts["digest"] = inspect_run(s.files.values(s.opt.tier)).digest_hex();
  return facts.dump();
}

}  // namespace

bool finished_before(SolveState& s) {
  if (!s.clustered()) return s.done(Stage::final());
  const std::string root = s.opt.cluster->broadcast(root_final(s));
  if (root.empty()) {
    // Recorded here after rank 0 had written the values run, which it then did not record:
    // this rank's working runs are still there (step 7 waits for every rank), so step 6 reruns.
    if (s.done(Stage::final())) s.erase(Stage::final());
    return false;
  }
  if (!s.done(Stage::final())) s.record(Stage::final(), {}, nlohmann::json::parse(root));
  return true;
}

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

// Level d recorded on this rank only: its stages and runs go, level d-1's are still there.
void undo_level(SolveState& s, std::uint32_t d) {
  s.erase(Stage::decided(d + 1));
  s.erase(Stage::level(d));
  for (const Layout& files : s.shard_files)
    files.remove(Run::states, d + 1), files.remove(Run::frontier, d + 1);
}

// The level every rank can run next: the least of the ranks' (one process: its own).
std::uint32_t agree_on_level(SolveState& s, std::uint32_t d) {
  const auto agreed = static_cast<std::uint32_t>(s.least(d));
  if (agreed == d) return d;
  if (agreed + 1 != d)
    throw std::runtime_error(s.opt.job_dir + ": this rank would resume at level " +
                             std::to_string(d) + ", another at level " + std::to_string(agreed) +
                             ": ranks more than a level apart cannot resume together");
  undo_level(s, agreed);
  return agreed;
}

}  // namespace

std::uint32_t first_level_to_run(SolveState& s) {
  const nlohmann::json scan = s.facts(Stage::scan());
  // Under MPI each rank scanned its own keys: every rank runs to the last level any scheduled.
  s.max_scheduled = static_cast<std::uint32_t>(s.most(scan.at("max_scheduled_level")));
  if (s.shards() > 1)
    s.ranges = KeyRanges(scan.at("shard_first_keys").get<std::vector<std::uint64_t>>());
  std::uint32_t d = 0;
  for (const Stage& st : s.stages())
    if (st.kind == Stage::Kind::level && s.done(st)) d = std::max(d, st.d() + 1);
  d = agree_on_level(s, d);
  if (d == 0) return 0;
  const nlohmann::json last = s.facts(Stage::level(d - 1));
  s.copied_total = last.value("copied_total", std::uint64_t{0});
  s.filtered_total = last.value("filtered_total", std::uint64_t{0});
  s.spilled_total = last.value("spilled_total", std::uint64_t{0});
  // A kill between recording a level and its decided run: list the decided run now.
  if (!s.done(Stage::decided(d)))
    if (const auto frontiers = unlisted_frontiers(s, d)) s.record(Stage::decided(d), *frontiers);
  return d;
}

void drop_working_runs(SolveState& s) {
  s.wait_for_every_process();  // until then, a rank killed in step 6 can have it run again
  for (const std::string& stage : s.manifest.stages())
    if (stage != Stage::final().name()) s.manifest.erase(stage);
  s.files.remove_working_files();
}

}  // namespace zermelo::retro
