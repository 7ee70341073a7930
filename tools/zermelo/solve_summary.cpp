// The short report of a default `zermelo solve`: see solve_summary.hpp.
#include "tools/zermelo/solve_summary.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "tools/zermelo/command.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::cli {
namespace {

struct Totals {
  std::uint64_t states = 0, wins = 0, losses = 0, draws = 0;
  std::uint32_t longest = 0;
  bool in_ram = false, resumed = false;
};

Totals totals_of(const std::vector<SolveResult>& results) {
  Totals t;
  for (const SolveResult& r : results) {
    t.states += r.states, t.wins += r.wins, t.losses += r.losses, t.draws += r.draws;
    t.longest = std::max(t.longest, r.longest);
    t.in_ram = r.in_ram, t.resumed = t.resumed || r.resumed;
  }
  return t;
}

std::string how_solved(const std::string& game, const std::vector<SolveResult>& results,
                       const Totals& t) {
  std::string what = "solved";  // a game without tiers is one tier, "all"
  if (results.size() > 1) what = std::to_string(results.size()) + " tiers solved";
  if (results.size() == 1 && results[0].tier != "all") what = "tier " + results[0].tier + " solved";
  return game + ": " + what + " " + (t.in_ram ? "in RAM" : "out of core") +
         (t.resumed ? " (resumed)" : "");
}

}  // namespace

SolveCost solve_cost(double seconds) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {seconds, static_cast<std::uint64_t>(usage.ru_maxrss) * 1024};  // ru_maxrss is in KiB
}

std::string who_wins(Value start) {
  if (!start.is_known()) return "the start is in no tier solved here";
  if (start.is_draw()) return "a draw with perfect play";
  return std::string(start.is_win() ? "the first" : "the second") + " player wins in " +
         std::to_string(start.plies()) + (start.plies() == 1 ? " ply" : " plies");
}

std::string solve_summary(const std::string& game, const std::vector<SolveResult>& results,
                          Value start, const SolveResult* start_tier, const SolveCost& cost) {
  const Totals t = totals_of(results);
  std::ostringstream os;
  os << how_solved(game, results, t) << "\n"
     << "  start position: " << start.to_string() << " (" << who_wins(start) << ")\n"
     << "  states " << t.states << ": " << t.wins << " wins, " << t.losses << " losses, " << t.draws
     << " draws; the longest decided state " << t.longest << " plies\n"
     << "  tables in " << globals().work_dir << "\n";
  if (start_tier)
    os << "  values run of the start " << start_tier->values_path << " (digest "
       << start_tier->digest << ")\n";
  os << "  time " << std::fixed << std::setprecision(1) << cost.seconds << " s, peak memory "
     << format_bytes(static_cast<double>(cost.peak_rss_bytes)) << "\n"
     << "  (--verbose: the values by plies, per tier, and the longest line; --json: everything)\n";
  return os.str();
}

nlohmann::json summary_json(Value start, const SolveCost& cost) {
  return {{"work_dir", globals().work_dir},
          {"winner", who_wins(start)},
          {"seconds", cost.seconds},
          {"peak_rss_bytes", cost.peak_rss_bytes}};
}

}  // namespace zermelo::cli
