// A set game solved end to end by either method, with the step tables and the report that
// `zermelo breakthrough solve` and `zermelo nim solve` print.
//
// Why apart from solver.hpp: the solver's two methods (retrograde, solve_by_reach) return sets
// and per-step statistics; a run also chooses a method, saves the final sets, fits the
// compression exponent over every set it built and measures time, memory and threads. That
// whole run lives here, for any front end; the CLI only parses options and calls.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "zermelo/dfa/set_game.hpp"

namespace zermelo::dfa {

struct SetSolveOptions {
  std::string method = "reach";  // "reach" (forward sets, then back up) or "retrograde"
  unsigned backward_steps = 0;   // reach: retrograde steps first (meet in the middle)
  unsigned max_steps = 100000;   // give up after this many steps/plies
  std::string save_dir;          // save the final won/lost sets here (.zdfa), if not empty
  bool restrict_backup = false;  // SetGame::simplify_backup
  bool digests = false;          // SetGame::digests
  std::string spill_dir;         // reach: keep the forward sets in set files here
};

// What to call the player to move at the start and the other one, in the report.
struct PlayerNames {
  std::string first, second;
};

// Solves g; `table` gets the human step tables line by line as the solve runs. Returns the
// report (fields in docs/dfa.md). Throws std::invalid_argument for an unknown method, and
// std::runtime_error when retrograde leaves the start undecided within max_steps.
nlohmann::json solve_set_game(SetGame& g, const SetSolveOptions& options,
                              const PlayerNames& players,
                              const std::function<void(const std::string&)>& table);

// The report's closing summary for people: the start, the winner, sizes, time and threads.
std::string summary_text(const SetGame& g, const nlohmann::json& report);

}  // namespace zermelo::dfa
