// What a strong solve writes into its job's manifest, shared by the out-of-core and in-RAM
// solvers so that both record one job the same way: the job's identity (a second solve into the
// directory must be the same job to resume it), the game as readers re-create it, and the facts
// of the finished values run from which a later run answers without solving again.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "zermelo/engine/retrograde.hpp"

namespace zermelo {

// The identity of a tier's solve: game, variant, tier, the lower tiers' values runs (relative to
// the job directory, so that a work dir can be moved) and the options that shape the run.
nlohmann::json retrograde_identity(const Game& game, const SolveOptions& opt);
// The facts of stage "final" for a solve's result, and the result again from them.
nlohmann::json final_facts(const SolveResult& r);
SolveResult result_from_final(const nlohmann::json& facts, const std::string& values, bool resumed);

}  // namespace zermelo
