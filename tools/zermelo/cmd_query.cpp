// `zermelo query [GAME [OPTIONS...]] STATE`: the value of one state and of every move, read from
// the solved values runs in --work-dir (only the blocks that can hold each key are read), bound to
// the work dir's manifest: the game comes from it, and a game named otherwise is an error.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "tools/zermelo/query.hpp"
#include "zermelo/engine/state_text.hpp"
#include "zermelo/engine/value_json.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/serve/board_picture.hpp"
#include "zermelo/serve/picture_file.hpp"

namespace zermelo::cli {
namespace {

GameRequest request_of(const QueryArgs& a) {
  GameRequest r = game_request({a.words.begin(), a.words.end() - 1});
  if (!a.options.empty()) {
    if (r.name.empty())
      throw std::invalid_argument("--options needs the game's name before the state");
    if (r.options_given)
      throw std::invalid_argument("options given twice (positional and --options)");
    r.options = a.options, r.options_given = true;
  }
  return r;
}

StateKey state_key(const Game& g, const std::string& state, const std::string& forbidden) {
  if (forbidden.empty()) return read_state(g, state);
  if (names_the_start(state) || state.find(':') != std::string::npos)
    throw std::invalid_argument("--forbidden " + forbidden + ": the state '" + state +
                                "' already says what is forbidden");
  return read_state(g, state + ":" + forbidden);
}

struct MoveValue {
  std::string move;
  Value value;  // for the player to move in the queried state
};

std::vector<MoveValue> move_values(const SolvedDatabase& db, StateKey key) {
  const Game& g = db.game();
  std::vector<Child> kids;
  g.successors(key, kids);
  std::vector<MoveValue> moves;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Value child = kids[i].is_terminal() ? kids[i].terminal : db.value(kids[i].key);
    moves.push_back({g.move_name(key, i), child.parent_via()});
  }
  return moves;
}

void print_json(const Game& g, StateKey key, Value v, const std::vector<MoveValue>& moves) {
  nlohmann::json list = nlohmann::json::array();
  for (const MoveValue& m : moves)
    list.push_back({{"move", m.move}, {"value", value_json(m.value)}, {"rank", m.value.rank()}});
  std::cout << nlohmann::json{{"game", g.name()},       {"variant", g.variant()},
                              {"state", g.render(key)}, {"key", key},
                              {"value", value_json(v)}, {"moves", list}}
                   .dump(2)
            << "\n";
}

void print_text(const Game& g, StateKey key, Value v, const std::vector<MoveValue>& moves) {
  std::cout << g.render(key) << "value: " << v.to_string() << " for the player to move\n";
  for (const MoveValue& m : moves)
    std::cout << "  " << std::left << std::setw(12) << m.move << m.value.to_string()
              << (m.value == v ? "  *" : "") << "\n";
}

}  // namespace

void run_query(const QueryArgs& a, const std::string& dir) {
  WorkDirLock lock(dir, WorkDirLock::Mode::kRead, "query");
  SolvedDatabase db(dir, request_of(a));
  const Game& g = db.game();
  const StateKey key = state_key(g, a.words.back(), a.forbidden);
  const Value v = db.value(key);
  if (!v.is_known())  // as decode: a state the solve never held has no value to report
    throw std::invalid_argument(g.name() + ": state '" + a.words.back() +
                                "' is no state solved in " + dir +
                                " (not reachable from the start)");
  if (!a.svg.empty()) write_text_file(a.svg, board_svg(g, key));
  if (!a.png.empty()) write_text_file(a.png, svg_to_png(board_svg(g, key)));
  const std::vector<MoveValue> moves = move_values(db, key);
  if (globals().json)
    print_json(g, key, v, moves);
  else
    print_text(g, key, v, moves);
}

}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(15, [](CLI::App& app) {
  using namespace zermelo::cli;
  auto* sub = app.add_subcommand(
      "query", "value of a state and of each of its moves, from a solved --work-dir");
  auto& a =
      command_options<QueryArgs>(sub, [](const QueryArgs& q) { run_query(q, globals().work_dir); });
  sub->add_option("words", a.words,
                  "[GAME [OPTIONS...]] STATE: the state in the game's text form, 'start' for the "
                  "start; the game defaults to the work dir's")
      ->required();
  sub->add_option("--options", a.options, "game options, as given to solve (e.g. --options 3x4)");
  sub->add_option("--forbidden", a.forbidden,
                  "the move a repetition rule forbids, for games whose state text takes it after "
                  "':' (Ostle): STATE --forbidden MOVE is STATE:MOVE");
  sub->add_option("--svg", a.svg, "also draw the state as an SVG picture into this file");
  sub->add_option("--png", a.png,
                  "also draw the state as a PNG picture (the SVG rendered) into this file");
  sub->footer(
      "The game and its options come from the work dir's manifest; named here, they must agree.\n"
      "Example: zermelo --work-dir work/default-onitama-3x4 query start\n"
      "         zermelo --work-dir work/default-onitama-3x4 query start --svg start.svg\n"
      "         zermelo --work-dir work/ostle query ostle 11111-00300-00000-00000-22222 "
      "--forbidden c2D");
});
