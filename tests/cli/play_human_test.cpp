// `zermelo play --opponent human` with a script on standard input, as a person would type it:
// the engine's moves announced with their values, hint, undo, a bad move answered with the legal
// moves, the final board with the result, and quit or the end of input as a normal end (exit 0).
#include <gtest/gtest.h>

#include <sstream>

#include "tests/test_util.hpp"

namespace zermelo::testing {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `zermelo play ARGS --opponent human` in `work`, the lines of `script` on standard input.
CommandResult play(const std::string& work, const std::string& args, const std::string& script) {
  return run_command("printf '" + script + "' | " + std::string(ZERMELO_CLI) +
                     " --quiet --work-dir " + work + " play " + args + " --opponent human");
}

// The three board lines printed just before "Game over after N plies": as many marks as plies.
void expect_the_final_board(const std::string& out) {
  const std::size_t over = out.rfind("Game over after ");
  ASSERT_NE(over, std::string::npos) << out;
  const int plies = std::stoi(out.substr(over + 16));
  const std::size_t board_end = out.rfind(" to move\n", over);
  ASSERT_NE(board_end, std::string::npos) << out;
  const std::string board = out.substr(board_end - 1 - 12, 12);  // "...\n...\n...\n"
  int marks = 0;
  for (char c : board) marks += c == 'X' || c == 'O';
  EXPECT_EQ(marks, plies) << board;
}

TEST(CliPlayHuman, HintUndoABadMoveAndTheGamePlayedToItsEnd) {
  ScratchDir dir;
  const std::string work = solved_work_dir(dir, "ttt", "tictactoe");
  // The person plays X (first): a hint, a bad move, an undo too early, b2, an undo, b2 again,
  // then every square in order (the taken ones refused) until the game ends.
  std::string script = "hint\\nzz\\nundo\\nb2\\nundo\\nb2\\n";
  for (int round = 0; round < 2; ++round) script += "a1\\nb1\\nc1\\na2\\nc2\\na3\\nb3\\nc3\\n";
  const CommandResult r = play(work, "--as second", script);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "You play first")) << r.out;
  EXPECT_TRUE(contains(r.out, "Hint: a1 (draw)")) << r.out;  // every opening draws; a1 is first
  EXPECT_TRUE(contains(r.out, "'zz' is not a move here; legal moves: a1 b1 c1 a2 b2 c2 a3 b3 c3"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "Nothing to take back yet.")) << r.out;
  // Against the centre a corner draws (an edge loses): the engine's reply, announced twice.
  EXPECT_TRUE(contains(r.out, "Zermelo plays a1 (draw)")) << r.out;
  EXPECT_TRUE(contains(r.out, "Took back: b2 a1\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "Game over after ")) << r.out;
  EXPECT_TRUE(contains(r.out, "Zermelo wins.") || contains(r.out, "a draw.")) << r.out;
  EXPECT_FALSE(contains(r.out, "you win.")) << r.out;
  expect_the_final_board(r.out);
}

// A game played with `script` on standard input, which ends with exit 0 and says `line`.
struct Said {
  const char* args;
  const char* script;
  const char* line;
};

void expect_said(const std::string& work, const std::vector<Said>& games) {
  for (const Said& g : games) {
    const CommandResult r = play(work, g.args, g.script);
    EXPECT_EQ(r.code, 0) << g.args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, g.line)) << g.args << "\n" << r.out;
  }
}

TEST(CliPlayHuman, EndOfInputAndQuitAreNormalEnds) {
  ScratchDir dir;
  expect_said(solved_work_dir(dir, "ttt", "tictactoe"),
              {{"--as second", "b2\\n", "\nEnd of input: you left the game after 2 plies.\n"},
               // the engine moves first, then there is no input at all
               {"", "", "\nEnd of input: you left the game after 1 plies.\n"},
               {"--as second", "quit\\n", "You quit after 0 plies.\n"}});
}

// Nim with one heap: the player to move takes the whole heap and wins in one ply, from the start
// and from a state given with --from.
TEST(CliPlayHuman, TheEngineAnnouncesItsMoveWithItsValue) {
  ScratchDir dir;
  const std::string work = solved_work_dir(dir, "nim", "nim 1x3");
  expect_said(work, {{"", "", "Zermelo plays 1:3 (win in 1)\n"},
                     {"", "", "Game over after 1 plies: Zermelo wins.\n"},
                     {"--from 2", "", "Zermelo plays 1:2 (win in 1)\n"}});
  EXPECT_NE(play(work, "--from 9", "").code, 0);  // no state of Nim 1x3
}

}  // namespace
}  // namespace zermelo::testing
