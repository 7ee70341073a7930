// The short report a default `zermelo solve` prints, and what it adds to the JSON.
//
// Why: a solve's full tables (values by plies, per tier, the longest line drawn ply by ply) run to
// hundreds of lines on a tiered game; a person wants who wins from the start and in how many
// plies, where the tables are, and what the solve cost. The tables stay behind `--verbose` and in
// the JSON.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "zermelo/engine/retrograde.hpp"

namespace zermelo::cli {

// What a solve cost this process: wall time and peak resident memory.
struct SolveCost {
  double seconds = 0;
  std::uint64_t peak_rss_bytes = 0;
};
SolveCost solve_cost(double seconds);  // the peak RSS as getrusage gives it now

// "the first player wins in 21 plies", "a draw with perfect play", ...
std::string who_wins(Value start);

// A few lines: the game as it was named (`game`: the command line's words, not the variant, which
// lists Onitama's cards in full) and how it was solved, the start's value, the states, the work
// dir and the values run of the start's tier (`start_tier`: null when the start is in no solved
// tier), time and peak memory.
std::string solve_summary(const std::string& game, const std::vector<SolveResult>& results,
                          Value start, const SolveResult* start_tier, const SolveCost& cost);

// The same summary's facts for the JSON: work_dir, seconds, peak_rss_bytes, winner.
nlohmann::json summary_json(Value start, const SolveCost& cost);

}  // namespace zermelo::cli
