// `zermelo play GAME`: the perfect player of a solved work dir against a random or perfect
// opponent, with the check that it never does worse than the start's value (perfect_play.hpp),
// or against a person at the keyboard (human_play.hpp).
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/engine/human_play.hpp"
#include "zermelo/engine/perfect_play.hpp"
#include "zermelo/engine/state_text.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace zermelo::cli {
namespace {

struct PlayArgs {
  std::vector<std::string> words;  // [GAME [OPTIONS...]]
  std::string from = std::string(kStartWord);
  std::string as = "first";
  std::string opponent = "random";
  std::size_t games = 100;
  std::uint64_t seed = 1;
  std::size_t max_plies = 1000;
  bool show = false;
};

// Every tier's values run in the work dir; a tier not solved there is an error naming it.
std::vector<std::string> values_runs(const SolvedDatabase& db) {
  std::vector<std::string> runs;
  for (auto& t : db.game().tiers()) runs.push_back(db.values(t.name));
  return runs;
}

const char* outcome(Value v) { return v.is_win() ? "won" : v.is_loss() ? "lost" : "drawn"; }

// The games' tally, and the games shown (--show, or a shortfall).
struct PlayTally {
  std::uint64_t wins = 0, draws = 0, losses = 0, shortfalls = 0, longest = 0;
  nlohmann::json shown = nlohmann::json::array();
};

// One game's result, from the perfect player's side, against what the start promised.
void tally_game(const PlayArgs& a, std::size_t n, const PlayedGame& pg, int me, Value promised,
                PlayTally& t) {
  const Value mine = me == 0 ? pg.result_for_first : pg.result_for_first.for_opponent();
  (mine.is_win() ? t.wins : mine.is_loss() ? t.losses : t.draws)++;
  t.longest = std::max<std::uint64_t>(t.longest, pg.plies);
  // Short of the promise: a won game not won within its plies, a drawn game lost.
  const bool short_of_it = (promised.is_win() && (!mine.is_win() || pg.plies > promised.plies())) ||
                           (promised.is_draw() && mine.is_loss());
  t.shortfalls += short_of_it;
  if (!a.show && !short_of_it) return;
  std::string line;
  for (auto& m : pg.moves) line += (line.empty() ? "" : " ") + m;
  if (globals().json)
    t.shown.push_back({{"game", n},
                       {"moves", pg.moves},
                       {"result", outcome(mine)},
                       {"plies", pg.plies},
                       {"short_of_the_value", short_of_it}});
  else
    std::cout << "game " << n << ": " << outcome(mine) << " by the perfect player in " << pg.plies
              << " plies" << (short_of_it ? "  SHORT OF THE VALUE" : "") << "\n  " << line << "\n";
}

void print_play(const Game& g, const PlayArgs& a, Value start, std::size_t games,
                const PlayTally& t) {
  if (globals().json)
    std::cout << nlohmann::json{{"game", g.name()},
                                {"variant", g.variant()},
                                {"start_value", start.to_string()},
                                {"as", a.as},
                                {"opponent", a.opponent},
                                {"games", games},
                                {"wins", t.wins},
                                {"draws", t.draws},
                                {"losses", t.losses},
                                {"longest_game", t.longest},
                                {"short_of_the_value", t.shortfalls},
                                {"shown", t.shown}}
                     .dump(2)
              << "\n";
  else
    std::cout << g.name() << (g.variant().empty() ? "" : " " + g.variant())
              << (names_the_start(a.from) ? ": the start, " : ": the state played from, ")
              << start.to_string() << " for its player to move (first); the perfect player ("
              << a.as << ") against " << a.opponent << " play, " << games << " games: " << t.wins
              << " won, " << t.draws << " drawn, " << t.losses << " lost; longest " << t.longest
              << " plies; " << t.shortfalls << " short of the value\n";
}

// A person against the perfect player: one game, the dialogue on the terminal; leaving it (quit,
// end of input) is a normal end.
void run_human(const PlayArgs& a, const Game& g, ValuesLookup& values, StateKey from) {
  HumanPlayOptions options;
  options.person_moves_first = a.as == "second";
  options.max_plies = a.max_plies;
  play_with_person(g, values, from, options, std::cin, std::cout);
}

// Games of the perfect player against random or perfect play, each checked against the value
// of the state they start from.
void run_games(const PlayArgs& a, const Game& g, ValuesLookup& values, StateKey from) {
  const Value start = values.find(from);
  if (!start.is_known())
    throw std::runtime_error(g.name() + ": the state played from has no value in " +
                             globals().work_dir);
  const int me = a.as == "first" ? 0 : 1;
  // The perfect player's value of the game.
  const Value promised = me == 0 ? start : start.for_opponent();
  std::mt19937_64 rng(a.seed);
  Player perfect = [&](StateKey s, const std::vector<Child>& kids) {
    const std::size_t i = perfect_move(values, kids);
    if (i == kids.size())
      throw std::runtime_error(g.name() + ": a child of state " + std::to_string(s) +
                               " has no value");
    return i;
  };
  Player opponent = perfect;
  if (a.opponent == "random")
    opponent = [&](StateKey, const std::vector<Child>& kids) {
      return std::size_t(rng() % kids.size());
    };
  Player players[2] = {me == 0 ? perfect : opponent, me == 0 ? opponent : perfect};
  PlayTally t;
  for (std::size_t n = 0; n < a.games; ++n)
    tally_game(a, n, play_game(g, from, players, a.max_plies), me, promised, t);
  print_play(g, a, start, a.games, t);
  if (t.shortfalls) throw CLI::RuntimeError(1);
}

void run_play(const PlayArgs& a) {
  WorkDirLock lock(globals().work_dir, WorkDirLock::Mode::kRead, "play");
  SolvedDatabase db(globals().work_dir, game_request(a.words));
  const Game& g = db.game();
  ValuesLookup values(values_runs(db));
  const StateKey from = read_state(g, a.from);
  if (a.opponent == "human")
    run_human(a, g, values, from);
  else
    run_games(a, g, values, from);
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(16, [](CLI::App& app) {
  using namespace zermelo;
  auto* sub = app.add_subcommand(
      "play", "the perfect player of a solved --work-dir, against random, human or perfect play");
  auto& a = cli::command_options<cli::PlayArgs>(sub, cli::run_play);
  cli::add_game_words(sub, a.words);
  sub->add_option("--as", a.as, "the perfect player's side: first or second")
      ->check(CLI::IsMember({"first", "second"}));
  sub->add_option("--opponent", a.opponent,
                  "random (uniform moves), human (you, at the keyboard: moves read from standard "
                  "input, with hint, undo and quit) or perfect")
      ->check(CLI::IsMember({"random", "human", "perfect"}));
  sub->add_option("--from", a.from, "the state to play from, in the game's text form or 'start'")
      ->capture_default_str();
  sub->add_option("--games", a.games, "games to play (human: 1)");
  sub->add_option("--seed", a.seed, "random opponent's seed");
  sub->add_option("--max-plies", a.max_plies,
                  "a game not over after this many moves counts as a draw");
  sub->add_flag("--show", a.show, "print every game's moves");
  sub->footer(
      "Checks every game: from a won start the perfect player must win within the value's plies, "
      "from a\n"
      "drawn start it must not lose; a shortfall is reported and the exit code is 1.\n"
      "Against a person (--opponent human) it announces its moves with their values; type a move "
      "as listed,\n"
      "or hint (the best move and its value), undo (take back your last move and its reply) or "
      "quit;\n"
      "the end of input leaves the game (exit 0).\n"
      "Example: zermelo --work-dir work/default-onitama-3x4 play onitama 3x4 --games 1000\n"
      "         zermelo --work-dir work/ttt play tictactoe --as second --opponent human");
});
