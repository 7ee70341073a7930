// The `zermelo othello` subcommands end to end: JSON output of a small solve and perft, and a
// clear error with a non-zero exit on bad input.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/test_util.hpp"

namespace {

struct CliRun {
  int status;
  std::string out;
};

CliRun run(const std::string& args) {
  const std::string cmd = std::string(ZERMELO_CLI) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {-1, ""};
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// FFO #40 (20 empties, a fraction of a second): Black to move, A2 wins by 38.
const std::string kFfo40Board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";

std::string scratch_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

// A problem file solved line by line, each against the score the file publishes (FFO's).
// Under the sanitizers the file's first two positions (its two comment lines kept, so the line
// numbers stay): the README's example (readme_othello_example) solves all four there too.
TEST(OthelloCli, SolvesAProblemFileAgainstItsPublishedScores) {
  const std::size_t positions = zermelo::testing::release_else_sanitized<std::size_t>(4, 2);
  std::string path = std::string(ZERMELO_SOURCE_DIR) + "/tests/data/ffo-easy.obf";
  if (positions < 4) {
    std::ifstream whole(path);
    std::string text, line;
    for (std::size_t i = 0; i < 2 + positions && std::getline(whole, line); ++i)
      text += line + "\n";
    path = scratch_file("ffo-easy-first.obf", text);
  }
  const CliRun r = run("--json --threads 1 othello solve " + path);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const auto& lines = j["positions"];
  ASSERT_EQ(lines.size(), positions);
  const std::vector<int> line_numbers{3, 4, 5, 6}, scores{38, 0, 6, -14}, empties{20, 22, 22, 23};
  std::uint64_t nodes = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["line"], line_numbers[i]);
    EXPECT_EQ(lines[i]["score"], scores[i]);
    EXPECT_EQ(lines[i]["published_score"], scores[i]);
    EXPECT_EQ(lines[i]["empties"], empties[i]);
    EXPECT_TRUE(lines[i]["agrees"].get<bool>());
    nodes += lines[i]["nodes"].get<std::uint64_t>();
  }
  EXPECT_EQ(lines[0]["best_move"], "A2");
  EXPECT_EQ(j["total"]["positions"], positions);
  EXPECT_EQ(j["total"]["nodes"], nodes);
  EXPECT_EQ(j["total"]["disagreements"], 0);
}

// A published score the solver does not find is marked in the table and fails the command.
TEST(OthelloCli, AProblemFileThatDisagreesExitsNonZero) {
  const std::string path = scratch_file(
      "wrong.obf", kFfo40Board + " X; A2:+36; C7:+34;\n" + kFfo40Board + "X; A2:+38;\n");
  const CliRun r = run("--threads 1 othello solve " + path);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("|       +36 | NO\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|       +38 | yes\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: 2 positions, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 DISAGREE with the file"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 position(s) disagree with the published score"), std::string::npos)
      << r.out;
}

TEST(OthelloCli, AMalformedProblemFileNamesTheLine) {
  const std::string path =
      scratch_file("malformed.obf", kFfo40Board + " X; A2:+38;\n" + kFfo40Board + " X; A2=+38;\n");
  const CliRun r = run("othello solve " + path);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(path + " line 2: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'A2=+38' is not MOVE:SCORE"), std::string::npos) << r.out;
}

// On the command line a position is BOARD SIDE, the 65-character form or a whole .obf line.
TEST(OthelloCli, ReadsTheSixtyFiveCharacterFormAndObfLines) {
  CliRun r = run("--json --threads 1 othello solve " + kFfo40Board + "X");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["score"], 38);
  EXPECT_FALSE(j.contains("published_score"));
  r = run("--json --threads 1 othello solve '" + kFfo40Board + " X; A2:+38; C7:+36;'");
  ASSERT_EQ(r.status, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["score"], 38);
  EXPECT_EQ(j["published_score"], 38);
  EXPECT_TRUE(j["agrees"].get<bool>());
  EXPECT_FALSE(j.contains("ffo"));
  r = run("othello solve " + kFfo40Board);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("64 squares, then X or O"), std::string::npos) << r.out;
}

TEST(OthelloCli, SolvesAFourByFourStartAsJson) {
  const CliRun r = run("--json --threads 1 othello solve --size 4 -- '-----OX--XO-----' X");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["score"], -10);
  EXPECT_EQ(j["empties"], 12);
  EXPECT_FALSE(j["pv"].empty());
}

// --stats: the counts by empties, their nodes summing to the solve's.
TEST(OthelloCli, SolveStatsGiveTheNodesByEmpties) {
  CliRun r = run("--json --threads 1 othello solve --stats " + kFfo40Board + "X");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("by_empties"));
  const auto& rows = j["by_empties"];
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front()["empties"], 20);
  std::uint64_t nodes = 0;
  int last = 65;
  for (const auto& row : rows) {
    EXPECT_LT(row["empties"].get<int>(), last);
    last = row["empties"].get<int>();
    nodes += row["nodes"].get<std::uint64_t>();
  }
  EXPECT_EQ(nodes, j["nodes"].get<std::uint64_t>());
  r = run("--threads 1 othello solve --stats " + kFfo40Board + "X");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("| empties | nodes |"), std::string::npos) << r.out;
  r = run("--json --threads 1 othello solve " + kFfo40Board + "X");
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("by_empties"));
}

TEST(OthelloCli, PerftAsJson) {
  const CliRun r = run("--json othello perft 5");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["leaves"], (std::vector<int>{4, 12, 56, 244, 1396}));
}

TEST(OthelloCli, WeakSolveProofChecksAndPlaysAndAWrongValueFails) {
  const std::string dir = ::testing::TempDir();
  const std::string proof = dir + "/cli4.proof";
  CliRun r = run("--json --quiet othello weak-solve --size 4 --proof " + proof);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["value"], -10);
  EXPECT_GT(j["proof_leaves"].get<int>(), 0);
  r = run("othello check-proof " + proof);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("proves value >= -10 for the side to move at the start position"),
            std::string::npos)
      << r.out;
  r = run("othello play --size 4 --proof " + proof + " --as white --games 3");
  EXPECT_EQ(r.status, 0) << r.out;
  r = run("othello check-proof " + dir + "/no-such.proof");
  EXPECT_NE(r.status, 0);
  r = run("othello weak-solve --size 4 --value 0 --quiet");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("refuted: value >= 0"), std::string::npos) << r.out;
}

// A search stopped after five solves leaves its journal and says how to go on; the same command
// resumes from it (five solves replayed), and a run of another position on it fails, naming it.
TEST(OthelloCli, WeakSolveStoppedResumesAndAJournalOfAnotherPositionIsAnError) {
  const std::string journal = ::testing::TempDir() + "/cli4-" + std::to_string(::getpid()) + ".j";
  const std::string cmd = "othello weak-solve --size 4 --quiet --journal " + journal;
  CliRun r = run(cmd + " --stop-after-solves 5");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("stopped after 5 solves"), std::string::npos) << r.out;
  ASSERT_TRUE(std::filesystem::exists(journal)) << r.out;
  r = run(cmd + " -- -----XXO-OXO---- X");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("belongs to another job"), std::string::npos) << r.out;
  r = run("--json " + cmd);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["value"], -10);
  EXPECT_EQ(j["resumed_solves"], 5);
  EXPECT_FALSE(std::filesystem::exists(journal));
}

TEST(OthelloCli, BadInputFailsWithAClearMessage) {
  CliRun r = run("othello solve XO- X");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("board has 3 squares, expected 64"), std::string::npos) << r.out;
  r = run("othello solve " + std::string(64, '-') + " Q");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("side to move"), std::string::npos) << r.out;
  r = run("othello perft 3 --size 5");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("board size must be 4, 6 or 8"), std::string::npos) << r.out;
}

namespace {
std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

// `othello train` twice, at 1 and 2 threads, writes the same bytes; `eval-error` reads the file
// and refuses it once a byte is changed.
TEST(OthelloCli, TrainIsReproducibleAndEvalErrorRefusesADamagedFile) {
  const std::string a = ::testing::TempDir() + "/train-a.bin";
  const std::string b = ::testing::TempDir() + "/train-b.bin";
  const std::string args =
      " othello train --seed 2 --positions 150 --min-empties 4 "
      "--max-empties 10 --out ";
  CliRun r = run("--threads 1" + args + a);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("150 self-play positions"), std::string::npos) << r.out;
  r = run("--threads 2" + args + b);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string bytes = file_bytes(a);
  ASSERT_GT(bytes.size(), 64u);
  EXPECT_EQ(bytes, file_bytes(b));

  r = run("--json othello eval-error --weights " + a +
          " --seed 3 --positions 40 --min-empties 4 --max-empties 8");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["all"]["positions"], 40);
  EXPECT_EQ(j["by_empties"].size(), 5u);

  std::string damaged = bytes;
  damaged[100] = static_cast<char>(damaged[100] ^ 4);
  std::ofstream(b, std::ios::binary | std::ios::trunc) << damaged;
  r = run("othello eval-error --weights " + b + " --positions 10");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("checksum mismatch"), std::string::npos) << r.out;
}
