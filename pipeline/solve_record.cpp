// A solve's records in its manifest (solve_record.hpp).
#include "pipeline/solve_record.hpp"

#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"

namespace zermelo {
using nlohmann::json;

json retrograde_identity(const Game& g, const SolveOptions& o) {
  json lower = json::array();
  for (auto& p : o.lower_tier_values) lower.push_back(relative_to_job(o.job_dir, p));
  json id = {{"game", g.name()},
             {"variant", g.variant()},
             {"tier", o.tier},
             {"lower", lower},
             {"predecessors", o.use_predecessors && g.has_predecessors()},
             {"init_chunk_states", o.init_chunk_states}};
  if (o.shards > 1) id["shards"] = o.shards;  // unsharded jobs keep the identity they had
  return id;
}

json final_facts(const SolveResult& r) {
  json hist = json::object();
  for (auto& [p, c] : r.by_plies) hist[std::to_string(p)] = c;
  return {{"states", r.states},
          {"wins", r.wins},
          {"losses", r.losses},
          {"draws", r.draws},
          {"by_plies", hist},
          {"levels", r.levels},
          {"longest", r.longest},
          {"longest_key", r.longest_key},
          {"copied_records", r.copied_records},
          {"filtered_messages", r.filtered_messages},
          {"spilled_runs", r.spilled_runs},
          {"exit_moves_settled", r.exit_moves_settled}};
}

SolveResult result_from_final(const json& f, const std::string& values, bool resumed) {
  SolveResult r;
  r.resumed = resumed;
  r.values_path = values;
  r.states = f["states"], r.wins = f["wins"], r.losses = f["losses"], r.draws = f["draws"];
  for (auto& [k, v] : f["by_plies"].items())
    r.by_plies[static_cast<std::uint32_t>(std::stoul(k))] = v;
  r.levels = f["levels"], r.longest = f["longest"], r.longest_key = f["longest_key"];
  r.copied_records = f.value("copied_records", std::uint64_t{0});
  r.exit_moves_settled = f.value("exit_moves_settled", std::uint64_t{0});
  r.filtered_messages = f.value("filtered_messages", std::uint64_t{0});
  r.spilled_runs = f.value("spilled_runs", std::uint64_t{0});
  // A rank of an MPI job other than 0 holds no values run, only its digest (docs/distributed.md).
  r.digest =
      f.contains("digest") ? f["digest"].get<std::string>() : inspect_run(values).digest_hex();
  return r;
}

}  // namespace zermelo
