// `zermelo breakthrough solve` and `zermelo nim solve`: games solved with DFA position sets
// (the set-game interface, zermelo/dfa/set_game.hpp). Prints per-step tables (set sizes in
// positions and DFA states, positions per byte) as the solve runs, then the winner and the
// compression exponent, or the report as --json (zermelo/dfa/set_game_solve.hpp).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/zermelo/command.hpp"
#include "zermelo/dfa/ext_solve.hpp"
#include "zermelo/dfa/set_game_solve.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"
#include "zermelo/games/nim/nim_sets.hpp"
#include "zermelo/util/process_usage.hpp"

namespace zermelo::cli {
namespace {

void solve_and_report(dfa::SetGame& g, const dfa::SetSolveOptions& o,
                      const dfa::PlayerNames& players) {
  const bool as_json = globals().json;
  const auto table = [as_json](const std::string& line) {
    if (!as_json) std::cout << line << std::flush;
  };
  const nlohmann::json report = dfa::solve_set_game(g, o, players, table);
  if (as_json)
    std::cout << report.dump(2) << "\n";
  else
    std::cout << dfa::summary_text(g, report);
}

void add_solve_options(CLI::App* solve, dfa::SetSolveOptions& o) {
  solve
      ->add_option("--method", o.method,
                   "reach (forward sets, then back up) or retrograde (W(i)/L(i) over all "
                   "positions)")
      ->capture_default_str();
  solve
      ->add_option("--backward-steps", o.backward_steps,
                   "reach: first run this many retrograde steps and stop expanding positions "
                   "they decide (meet in the middle)")
      ->capture_default_str();
  solve->add_option("--max-steps", o.max_steps, "give up after this many steps/plies")
      ->capture_default_str();
  solve->add_flag("--restrict-backup", o.restrict_backup,
                  "reach: hand each ply's lost set up the back-up restricted to what the ply "
                  "above can reach (fewer states, not faster)");
  solve->add_flag("--digests", o.digests,
                  "give every set in the JSON its canonical digest, the one an --external solve "
                  "gives the same set (costs a numbering of each set)");
  solve->add_option("--spill", o.spill_dir,
                    "reach: keep each ply's forward sets in set files under this directory "
                    "until the back-up needs them; the same command resumes a stopped solve "
                    "from them");
  solve->add_option("--save", o.save_dir,
                    "directory to save the final won/lost sets to (checksummed .zdfa files)");
}

struct BreakthroughArgs {
  std::vector<std::string> words;  // WxH, as `solve breakthrough` takes it
  std::string board;
  dfa::SetSolveOptions solve;
  std::string external_dir;  // --external: the ply sets out of core under this directory
};

// Of --memory, the share the sorts of the external passes get (the rest is the table of the
// game's own sets: universe, filters, known sets).
constexpr std::uint64_t kExternalSortShare = 4;

// The one board, named as `solve breakthrough WxH` names it or by --board; not both, not neither.
std::string breakthrough_board(const BreakthroughArgs& a) {
  if (a.words.size() > 1)
    throw std::invalid_argument("breakthrough: one option, the board WxH, not '" + a.words[1] +
                                "'");
  if (!a.words.empty() && !a.board.empty())
    throw std::invalid_argument("breakthrough: the board is named twice, as '" + a.words[0] +
                                "' and as --board " + a.board);
  if (a.words.empty() && a.board.empty())
    throw std::invalid_argument(
        "breakthrough: name the board, e.g. `zermelo breakthrough solve 3x4`");
  return a.words.empty() ? a.board : a.words[0];
}

// A set's figures in a progress row: positions (where counted) and DFA states.
std::string set_cell(const char* name, const dfa::ExtSetStats& s) {
  char buf[96];
  if (s.counted)
    std::snprintf(buf, sizeof buf, "%s %llu positions %llu states", name,
                  static_cast<unsigned long long>(s.positions),
                  static_cast<unsigned long long>(s.states));
  else
    std::snprintf(buf, sizeof buf, "%s %llu states", name,
                  static_cast<unsigned long long>(s.states));
  return buf;
}

// The progress row of a ply, on stderr (stdout keeps the answer, or the JSON).
void progress_row(const dfa::ExtReachStep& st, bool backing_up) {
  if (globals().quiet) return;
  const char* earlier = backing_up ? (st.backup_resumed ? "  (recorded by an earlier run)" : "")
                                   : (st.resumed ? "  (recorded by an earlier run)" : "");
  if (backing_up)
    std::fprintf(stderr, "back-up ply %3u | %s | %s | %.1f s%s\n", st.ply,
                 set_cell("won", st.won).c_str(), set_cell("lost", st.lost).c_str(), st.seconds,
                 earlier);
  else
    std::fprintf(stderr, "forward ply %3u | %s | %s | %.1f s%s\n", st.ply,
                 set_cell("R", st.reach).c_str(), set_cell("open", st.undecided).c_str(),
                 st.seconds, earlier);
  std::fflush(stderr);
}

void print_external(const dfa::ExtReachResult& r, double seconds) {
  const char* winner = r.start_won ? "P1" : "P2";
  if (!globals().json) {
    std::printf("winner: %s (first player %s), %zu plies, forward %.1f s, back-up %.1f s\n", winner,
                r.start_won ? "wins" : "loses", r.steps.size(), r.forward_seconds,
                r.backward_seconds);
    return;
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const dfa::ExtReachStep& st : r.steps) steps.push_back(dfa::ext_step_json(st));
  const nlohmann::json report = {{"method", "reach-external"},
                                 {"plies", r.steps.size()},
                                 {"winner", winner},
                                 {"start_value", r.start_won ? "win" : "loss"},
                                 {"steps", steps},
                                 {"forward_seconds", r.forward_seconds},
                                 {"backward_seconds", r.backward_seconds},
                                 {"resumed_plies", r.resumed_plies},
                                 {"resumed_backup_plies", r.resumed_backup_plies},
                                 {"seconds", seconds},
                                 {"peak_rss_bytes", peak_rss_bytes()}};
  std::cout << report.dump(2) << "\n";
}

// The meet-in-the-middle solve with its sets out of core (ext_solve.hpp): a progress row per ply
// as the forward search and the back-up pass it, then the winner. Only --backward-steps and
// --max-steps of the solve options apply. The same command resumes a stopped solve from the
// record in the directory; another command on it is refused.
void solve_external(const dfa::SetGame& g, const BreakthroughArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const dfa::SetSolveOptions& o = a.solve;
  if (o.method != "reach" || !o.save_dir.empty() || !o.spill_dir.empty() || o.restrict_backup)
    throw std::invalid_argument(
        "breakthrough: --external takes --backward-steps and --max-steps only (method reach)");
  dfa::Set known_won = g.won0, known_lost = g.lost0;
  if (o.backward_steps > 0) {
    const dfa::RetrogradeResult back = dfa::retrograde(g, o.backward_steps);
    known_won = back.won, known_lost = back.lost;
  }
  dfa::ExtOptions eo{a.external_dir + "/scratch", globals().memory_bytes / kExternalSortShare};
  eo.threads = globals().threads;
  const std::string identity = "breakthrough solve " + breakthrough_board(a) +
                               " --backward-steps " + std::to_string(o.backward_steps);
  const dfa::ExtReachResult r = dfa::ext_solve_by_reach(g, known_won, known_lost, o.max_steps,
                                                        a.external_dir, identity, eo, progress_row);
  print_external(r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

void run_breakthrough(const BreakthroughArgs& a) {
  breakthrough::Board b = breakthrough::parse_board(breakthrough_board(a));
  const bool external = !a.external_dir.empty();
  const std::uint64_t memory = globals().memory_bytes;
  auto m = breakthrough::make_manager(b, external ? memory - memory / kExternalSortShare : memory);
  m->set_threads(globals().threads);
  dfa::SetGame g = breakthrough::make_game(*m, b);
  if (external) return solve_external(g, a);
  solve_and_report(g, a.solve, {"P1", "P2"});
}

struct NimArgs {
  std::string words;               // HEAPSxSTICKS, as `solve nim` takes it
  unsigned heaps = 0, sticks = 0;  // 0: not given
  dfa::SetSolveOptions solve = [] {
    dfa::SetSolveOptions o;
    o.method = "retrograde";
    return o;
  }();
};

// The heaps and sticks, named as `solve nim 4x7` names them or by --heaps and --sticks.
nim_dfa::NimShape nim_shape(const NimArgs& a) {
  const bool flags = a.heaps || a.sticks;
  if (!a.words.empty() && flags)
    throw std::invalid_argument("nim: the shape is named twice, as '" + a.words +
                                "' and by --heaps/--sticks");
  nim_dfa::NimShape shape;
  if (!a.words.empty()) {
    shape = nim_dfa::parse_shape(a.words);
  } else if (flags) {
    shape.heaps = a.heaps, shape.sticks = a.sticks;  // a 0 is refused by check_shape
  } else {
    throw std::invalid_argument("nim: name the heaps, e.g. `zermelo nim solve 3x5` (3 of 5)");
  }
  return shape;
}

void run_nim(const NimArgs& a) {
  const nim_dfa::NimShape shape = nim_shape(a);
  auto m = nim_dfa::make_manager(shape, globals().memory_bytes);
  m->set_threads(globals().threads);
  dfa::SetGame g = nim_dfa::make_game(*m, shape);
  solve_and_report(g, a.solve, {"first player", "second player"});
}

void setup_set_games(CLI::App& app) {
  auto* bt = app.add_subcommand("breakthrough",
                                "Breakthrough on small boards, solved with DFA position sets");
  bt->require_subcommand(1);
  auto* solve =
      bt->add_subcommand("solve", "solve a w x h board (P1 starts on rows 1-2 and moves first)");
  auto& b = command_options<BreakthroughArgs>(solve, run_breakthrough);
  solve->add_option("board", b.words, "board WxH as solve takes it, e.g. 3x4");
  solve->add_option("--board", b.board, "board WxH (or as the option word)");
  add_solve_options(solve, b.solve);
  solve->add_option("--external", b.external_dir,
                    "reach with the ply sets out of core, as external DFA sets under this "
                    "directory (a quarter of --memory for the sorts, the rest for the game's "
                    "own sets); a progress row per ply on stderr (positions, DFA states, "
                    "seconds). Each finished ply is recorded in DIR/manifest.json: the same "
                    "command resumes a stopped solve there, another command is refused");

  auto* nim = app.add_subcommand("nim", "Nim (last stick wins), solved with DFA position sets");
  nim->require_subcommand(1);
  auto* nsolve = nim->add_subcommand(
      "solve", "solve m heaps of up to n sticks; the start has n sticks in every heap");
  auto& n = command_options<NimArgs>(nsolve, run_nim);
  nsolve->add_option("shape", n.words, "HEAPSxSTICKS as solve takes it, e.g. 3x5");
  nsolve->add_option("--heaps", n.heaps, "number of heaps m (or the option word)");
  nsolve->add_option("--sticks", n.sticks, "sticks per heap n (or the option word)");
  add_solve_options(nsolve, n.solve);
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(40, zermelo::cli::setup_set_games)
