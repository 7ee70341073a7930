// `zermelo onitama count|tiers|solve|weak-solve|query`: Onitama's in-RAM state graph, the
// out-of-core solve's tiers, strong solve, forward-looking weak solve and position queries, for any
// board and five cards.
#include <sys/resource.h>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/query.hpp"
#include "tools/zermelo/scratch_work_dir.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/games/onitama/solve.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"

// A namespace of its own: the using-directive below stays out of the other commands compiled
// in the same unity file.
namespace onitama_command {
namespace {

using namespace zermelo::onitama;
using zermelo::Value;

struct Options {
  std::vector<std::string> words;  // WxH [CARDS] [symmetry], as `solve onitama` takes them
  std::string board;
  std::string cards = "boar";
  bool symmetry = false;
  std::string state;
};

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

std::string winner(const Rules& rules, Value v) {
  const int mover = rules.start_position().player;
  if (v.is_draw()) return "Draw";
  const int w = v.is_win() ? mover : 1 - mover;
  return w == kRed ? "Red" : "Blue";
}

std::string fmt(double x, int prec = 3) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(prec) << x;
  return os.str();
}

void table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::size_t w = 0;
  for (auto& r : rows) w = std::max(w, r.first.size());
  for (auto& [k, v] : rows)
    std::cout << std::left << std::setw(static_cast<int>(w + 2)) << k << v << "\n";
}

void add_common(CLI::App* sub, Options& o) {
  sub->add_option("options", o.words,
                  "the game's options as solve takes them: WxH [CARDS] [symmetry], e.g. 3x4 boar");
  sub->add_option("--board", o.board, "board WIDTHxHEIGHT (or as the first option word)");
  sub->add_option(
         "--cards", o.cards,
         "one card (five copies) or five cards: Red's two, Blue's two, set-aside; a card is a "
         "name or offsets like (-1,0)(0,-1)(1,0)@red")
      ->capture_default_str();
  sub->add_flag("--symmetry", o.symmetry, "fold the player-swap symmetry");
}

// The board named as `solve onitama` names it, `3x4 boar [symmetry]`, or by the flags; not both.
Options with_option_words(Options o) {
  if (!o.words.empty() && !o.board.empty())
    throw std::invalid_argument("onitama: the board is named twice, as '" + o.words[0] +
                                "' and as --board " + o.board);
  auto symmetry = std::find(o.words.begin(), o.words.end(), "symmetry");
  if (symmetry != o.words.end()) o.symmetry = true, o.words.erase(symmetry);
  if (o.words.size() > 2)
    throw std::invalid_argument("onitama: options are WxH [CARDS] [symmetry], not '" + o.words[2] +
                                "'");
  if (!o.words.empty()) o.board = o.words[0];
  if (o.words.size() == 2) o.cards = o.words[1];
  if (o.board.empty())
    throw std::invalid_argument("onitama: name the board, e.g. `zermelo onitama count 3x4 boar`");
  return o;
}

// The in-RAM solvers hold a bit per key of the key space; refuse up front what cannot fit.
Rules make_rules(const Options& o) {
  Rules rules = Rules::from_options({o.board, o.cards});
  const std::uint64_t need = rules.key_space() / 8;
  const std::uint64_t budget = zermelo::cli::globals().memory_bytes;
  if (budget && need > budget)
    throw std::invalid_argument(
        "board " + rules.board_name() + " needs " +
        zermelo::format_bytes(static_cast<double>(need)) +
        " for its key-space bit vector alone, over the --memory budget of " +
        zermelo::format_bytes(static_cast<double>(budget)));
  return rules;
}

nlohmann::json base_json(const Rules& rules, const Options& o) {
  return {{"game", "onitama"},
          {"board", rules.board_name()},
          {"cards", rules.deck_name()},
          {"symmetry", o.symmetry}};
}

void run_count(const Options& o) {
  Rules rules = make_rules(o);
  KeySet set;
  auto t0 = std::chrono::steady_clock::now();
  GraphStats st = explore(rules, o.symmetry, set);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (zermelo::cli::globals().json) {
    auto j = base_json(rules, o);
    j.update({{"states", st.states},
              {"edges", st.edges},
              {"terminal", st.terminal},
              {"depth", st.level_sizes.size()},
              {"seconds", secs},
              {"peak_rss_mib", peak_rss_mib()}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  table({{"board", rules.board_name()},
         {"cards", rules.deck_name()},
         {"symmetry", o.symmetry ? "yes" : "no"},
         {"states", std::to_string(st.states)},
         {"edges", std::to_string(st.edges)},
         {"terminal states", std::to_string(st.terminal)},
         {"BFS depth", std::to_string(st.level_sizes.size())},
         {"time", fmt(secs) + " s"},
         {"peak RSS", fmt(peak_rss_mib(), 1) + " MiB"}});
}

// The tiers the out-of-core engine solves (`zermelo solve onitama WxH`) and their legal states,
// counted without enumerating: how big a board is before solving it.
void run_tiers(const Options& o) {
  Rules rules = Rules::from_options({o.board, o.cards});
  std::vector<std::pair<std::string, std::uint64_t>> rows;
  std::uint64_t total = 0;
  for (int sum = 0; sum <= 2 * (rules.width() - 1); ++sum)
    for (int red = std::max(0, sum - rules.width() + 1); red <= std::min(sum, rules.width() - 1);
         ++red) {
      const int blue = sum - red;
      if (o.symmetry && red < blue) continue;  // folded into "s<red>s<blue>" with red >= blue
      const std::uint64_t n =
          o.symmetry ? rules.count_folded(red, blue) : rules.count_legal(red, blue);
      rows.emplace_back(
          (o.symmetry ? "s" + std::to_string(red) + "s" : "r" + std::to_string(red) + "b") +
              std::to_string(blue),
          n);
      total += n;
    }
  if (zermelo::cli::globals().json) {
    auto j = base_json(rules, o);
    nlohmann::json tiers = nlohmann::json::object();
    for (auto& [name, n] : rows) tiers[name] = n;
    j.update({{"tiers", tiers}, {"legal_states", total}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "Onitama " << rules.board_name() << ", cards " << rules.deck_name()
            << ": legal states by tier (bottom-up"
            << (o.symmetry ? "; player-swapped twins folded" : "") << ")\n";
  for (auto& [name, n] : rows)
    std::cout << "  " << std::left << std::setw(8) << name << std::right << std::setw(16) << n
              << "\n";
  std::cout << "  " << std::left << std::setw(8) << "total" << std::right << std::setw(16) << total
            << "\n";
}

void run_solve(const Options& o) {
  Rules rules = make_rules(o);
  StrongResult r = solve_strong(rules, o.symmetry);
  if (zermelo::cli::globals().json) {
    auto j = base_json(rules, o);
    j.update({{"states", r.graph.states},
              {"edges", r.graph.edges},
              {"terminal", r.graph.terminal},
              {"start_value", r.start_value.to_string()},
              {"winner", winner(rules, r.start_value)},
              {"wins", r.wins},
              {"losses", r.losses},
              {"draws", r.draws},
              {"longest_win", r.longest_win},
              {"retrograde_levels", r.levels},
              {"explore_seconds", r.explore_seconds},
              {"solve_seconds", r.solve_seconds},
              {"peak_rss_mib", peak_rss_mib()}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  table(
      {{"board", rules.board_name()},
       {"cards", rules.deck_name()},
       {"symmetry", o.symmetry ? "yes" : "no"},
       {"states", std::to_string(r.graph.states)},
       {"edges", std::to_string(r.graph.edges)},
       {"won / lost / drawn", std::to_string(r.wins) + " / " + std::to_string(r.losses) + " / " +
                                  std::to_string(r.draws)},
       {"start", r.start_value.to_string() + " for the player to move"},
       {"winner", winner(rules, r.start_value)},
       {"longest win", std::to_string(r.longest_win) + " plies"},
       {"time", fmt(r.explore_seconds) + " s explore + " + fmt(r.solve_seconds) + " s retrograde"},
       {"peak RSS", fmt(peak_rss_mib(), 1) + " MiB"}});
}

void run_weak(const Options& o) {
  Rules rules = Rules::from_options({o.board, o.cards});
  WeakResult r = solve_weak(rules, o.symmetry);
  if (zermelo::cli::globals().json) {
    auto j = base_json(rules, o);
    j.update({{"start_value", r.start_value.to_string()},
              {"winner", winner(rules, r.start_value)},
              {"expanded", r.expanded},
              {"discovered", r.discovered},
              {"depth", r.depth},
              {"seconds", r.seconds},
              {"peak_rss_mib", peak_rss_mib()}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  table({{"board", rules.board_name()},
         {"cards", rules.deck_name()},
         {"symmetry", o.symmetry ? "yes" : "no"},
         {"winner", winner(rules, r.start_value)},
         {"start", r.start_value.to_string() + " (plies are an upper bound)"},
         {"states expanded", std::to_string(r.expanded)},
         {"states discovered", std::to_string(r.discovered)},
         {"BFS depth", std::to_string(r.depth)},
         {"time", fmt(r.seconds) + " s"},
         {"peak RSS", fmt(peak_rss_mib(), 1) + " MiB"}});
}

// An alias of the generic `query`, printing what it prints: the board is solved in RAM (the
// generic `solve onitama ... --in-ram`) into a scratch work dir, then `query` answers.
void run_query(const Options& o) {
  std::vector<std::string> game_options{o.board, o.cards};
  if (o.symmetry) game_options.push_back("symmetry");
  const auto game = zermelo::make_game("onitama", game_options);
  const zermelo::cli::ScratchWorkDir scratch("onitama-query");
  zermelo::SolveOptions solve;
  solve.job_dir = scratch.path;
  solve.memory_bytes = zermelo::cli::globals().memory_bytes;
  solve.threads = zermelo::cli::globals().threads;
  solve.in_ram = true;
  zermelo::Progress::set_enabled(false);
  zermelo::solve_tiers(*game, solve, "all");
  zermelo::cli::QueryArgs query;
  query.words = {"onitama"};
  query.words.insert(query.words.end(), game_options.begin(), game_options.end());
  query.words.push_back(o.state.empty() ? "start" : o.state);
  zermelo::cli::run_query(query, scratch.path);
}

}  // namespace

ZERMELO_REGISTER_COMMAND(50, [](CLI::App& app) {
  auto* top = app.add_subcommand(
      "onitama", "Onitama on n x m boards: count, solve, weak-solve, query (in RAM)");
  top->require_subcommand(1);
  struct Sub {
    const char* name;
    const char* help;
    void (*run)(const Options&);
  };
  const Sub subs[] = {
      {"count", "reachable states and edges from the start", run_count},
      {"tiers", "the out-of-core solve's tiers and their legal states, counted", run_tiers},
      {"solve", "strong solve by retrograde analysis", run_solve},
      {"weak-solve", "forward-looking retrograde analysis from the start", run_weak},
      {"query", "the generic `query`, on the board solved in RAM first", run_query}};
  Options* query = nullptr;
  for (const Sub& sub : subs) {
    auto* c = top->add_subcommand(sub.name, sub.help);
    query = &zermelo::cli::command_options<Options>(
        c, [run = sub.run](const Options& o) { run(with_option_words(o)); });
    add_common(c, *query);
  }
  // The last, query, takes one more option.
  top->get_subcommand("query")->add_option(
      "--state", query->state,
      "the state as printed, or one line 'rRr/.../bBb red [red=c,c blue=c,c aside=c]'; default: "
      "the start");
});

}  // namespace onitama_command
