// One command-line grammar: `start` names the start wherever a state is taken (query, decode,
// play --from, ostle show, othello solve) and means what the game's own text of the start means;
// `query --json` gives values as objects ({"result":"win","plies":1}; a draw without plies);
// Othello's principal variation is printed with its moves apart.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/test_util.hpp"

namespace zermelo::testing {
namespace {

using nlohmann::json;

json cli_json(const std::string& args) {
  const CommandResult r = run_cli("--json " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return r.code == 0 ? json::parse(r.out) : json();
}

TEST(CliStartWord, QueryDecodeAndPlayTakeStart) {
  ScratchDir dir;
  const std::string work = "--work-dir " + solved_work_dir(dir, "ttt", "tictactoe");
  const json start = cli_json(work + " query start");
  const json empty_board = cli_json(work + " query .........");
  EXPECT_EQ(start["key"], empty_board["key"]);
  EXPECT_EQ(start, empty_board);
  const json decoded = cli_json(work + " decode start");
  EXPECT_EQ(decoded["key"], start["key"]);
  EXPECT_EQ(decoded["state"], start["state"]);
  EXPECT_EQ(run_cli(work + " play --from start --games 3").code, 0);
  EXPECT_NE(run_cli(work + " decode starts 2>&1").code, 0);
}

TEST(CliQueryJson, ValuesAreObjectsWithResultAndPlies) {
  ScratchDir dir;
  const std::string work = "--work-dir " + solved_work_dir(dir, "ttt", "tictactoe");
  EXPECT_EQ(cli_json(work + " query start")["value"], json({{"result", "draw"}}));
  // X to move, two in the top row: c1 completes it (a win in 1 ply); c2 blocks O's row (not
  // checked here); every other move lets O complete its row at once (a loss in 2).
  const json q = cli_json(work + " query XX./OO./...");
  EXPECT_EQ(q["value"], json({{"result", "win"}, {"plies", 1}}));
  for (const json& m : q["moves"]) {
    if (m["move"] == "c2") continue;
    const json want = m["move"] == "c1" ? json({{"result", "win"}, {"plies", 1}})
                                        : json({{"result", "loss"}, {"plies", 2}});
    EXPECT_EQ(m["value"], want) << m;
  }
}

// X's row and O's row both complete: a board the rules can write but no game reaches (it ended at
// X's row). The solve never held it, so there is no value to give: an error, as decode's for a
// key, never "unknown" with exit 0.
TEST(CliQueryJson, AStateTheSolveNeverReachedIsAnError) {
  ScratchDir dir;
  const std::string work = "--work-dir " + solved_work_dir(dir, "ttt", "tictactoe");
  const CommandResult r = run_cli(work + " query XXX/OOO/... 2>&1");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("is no state solved in"), std::string::npos) << r.out;
}

TEST(CliStartWord, OstleShowAndOthelloSolveTakeStart) {
  const CommandResult named = run_cli("ostle show start");
  ASSERT_EQ(named.code, 0) << named.out;
  EXPECT_EQ(named.out, run_cli("ostle show 11111-00000-00300-00000-22222").out);

  const json start = cli_json("--threads 1 othello solve start --size 4");
  const json board = cli_json("--threads 1 othello solve .....OX..XO..... X --size 4");
  for (const char* field : {"board", "score", "best_move", "pv", "nodes"})
    EXPECT_EQ(start[field], board[field]) << field;
  EXPECT_NE(run_cli("othello solve start O --size 4 2>&1").code, 0);  // Black moves first
}

TEST(CliOthelloLine, ThePrincipalVariationIsPrintedWithItsMovesApart) {
  const json j = cli_json("othello solve start --size 4");
  ASSERT_TRUE(j["pv"].is_array());
  ASSERT_GT(j["pv"].size(), 5u);
  std::string line;
  for (const json& m : j["pv"]) line += (line.empty() ? "" : " ") + m.get<std::string>();
  const CommandResult text = run_cli("othello solve start --size 4");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("PV          " + line + "\n"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace zermelo::testing
