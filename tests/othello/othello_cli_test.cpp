// The `zermelo othello` subcommands end to end: JSON output of a small solve and perft, and a
// clear error with a non-zero exit on bad input.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

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

}  // namespace

TEST(OthelloCli, SolvesAFourByFourStartAsJson) {
  const CliRun r = run("--json --threads 1 othello solve --size 4 -- '-----OX--XO-----' X");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["score"], -10);
  EXPECT_EQ(j["empties"], 12);
  EXPECT_FALSE(j["pv"].empty());
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
