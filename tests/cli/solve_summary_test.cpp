// `zermelo solve`'s default report: a short summary (who wins from the start and in how many
// plies, where the tables are, time and peak memory); the long tables behind --verbose and in the
// JSON. The winners are checked against Nim's theory and tic-tac-toe's known draw, the peak
// memory against what the kernel reports for the child process.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/test_util.hpp"

namespace {

using zermelo::testing::run_cli;

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

std::size_t lines_of(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(SolveSummary, SaysWhoWinsWhereTheTablesAreAndTheCost) {
  zermelo::testing::ScratchDir dir;
  const std::string work = dir / "ttt";
  const auto text = run_cli("--work-dir " + work + " solve tictactoe 2>&1");
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_TRUE(contains(text.out, "tictactoe: solved out of core\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "start position: draw (a draw with perfect play)")) << text.out;
  EXPECT_TRUE(contains(text.out, "states 5478: ")) << text.out;
  EXPECT_TRUE(contains(text.out, "tables in " + work + "\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "values run of the start " + work + "/values-all.run"))
      << text.out;
  EXPECT_TRUE(contains(text.out, " s, peak memory ")) << text.out;
  EXPECT_FALSE(contains(text.out, "plies  states")) << text.out;  // the tables: --verbose only
  EXPECT_LE(lines_of(text.out), 7u) << text.out;

  // The counts are the engine's, as its JSON gives them.
  const auto json = run_cli("--json --work-dir " + (dir / "ttt-json") + " solve tictactoe");
  ASSERT_EQ(json.code, 0) << json.out;
  const auto j = nlohmann::json::parse(json.out);
  std::ostringstream counts;
  counts << "states 5478: " << j["wins"] << " wins, " << j["losses"] << " losses, " << j["draws"]
         << " draws; the longest decided state " << j["longest"] << " plies\n";
  EXPECT_TRUE(contains(text.out, counts.str())) << text.out << counts.str();
  EXPECT_EQ(j["winner"], "a draw with perfect play");
  EXPECT_EQ(j["work_dir"], dir / "ttt-json");
}

// Nim by its theory: heaps whose sizes XOR to zero are lost for the player to move. Two heaps of
// three: the winner must answer each move with the same move on the other heap, and the loser
// makes the game longest by taking one stick at a time, so the second player wins in 6 plies; one
// heap of 5 is won at once by taking it.
TEST(SolveSummary, NimsWinnerAndPliesAreTheTheorys) {
  zermelo::testing::ScratchDir dir;
  auto r = run_cli("--work-dir " + (dir / "2x3") + " solve nim 2x3 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "start position: loss in 6 (the second player wins in 6 plies)"))
      << r.out;
  r = run_cli("--work-dir " + (dir / "1x5") + " solve nim 1x5 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "start position: win in 1 (the first player wins in 1 ply)"))
      << r.out;
}

// Onitama's tiers: the summary draws no board and lists no cards; --verbose has every tier's table
// and line, and the whole game's table.
TEST(SolveSummary, ATieredGameIsSummedUpInAFewLines) {
  zermelo::testing::ScratchDir dir;
  const auto brief = run_cli("--work-dir " + (dir / "a") + " solve onitama 3x3 boar 2>&1");
  ASSERT_EQ(brief.code, 0) << brief.out;
  EXPECT_TRUE(contains(brief.out, "onitama 3x3 boar: 9 tiers solved out of core\n")) << brief.out;
  EXPECT_FALSE(contains(brief.out, " to move")) << brief.out;  // no board drawn
  EXPECT_LE(lines_of(brief.out), 7u) << brief.out;
  EXPECT_FALSE(contains(brief.out, "Boar")) << brief.out;  // nor the cards in full
  const auto verbose =
      run_cli("--work-dir " + (dir / "b") + " solve onitama 3x3 boar --in-ram --verbose 2>&1");
  ASSERT_EQ(verbose.code, 0) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, "tier r0b0 solved in RAM\n  states 146: ")) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, "plies  states")) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, " to move")) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, "whole game, all 9 tiers")) << verbose.out;
  EXPECT_FALSE(contains(verbose.out, "(-1,0)")) << verbose.out;  // no card's moves listed
  // The same start, however it is printed.
  const auto at = brief.out.find("start position: ");
  ASSERT_NE(at, std::string::npos);
  const std::string start = brief.out.substr(at, brief.out.find('\n', at) - at);
  EXPECT_TRUE(contains(verbose.out, start)) << verbose.out;
}

// The peak memory reported is the process's own: at most what the kernel gives the parent for the
// child (getrusage of a waited-for child), and not nothing.
TEST(SolveSummary, PeakMemoryIsWhatTheKernelMeasures) {
  zermelo::testing::ScratchDir dir;
  const std::string work = dir / "nim", out = dir / "out.json";
  const auto run = zermelo::testing::run_cli_measured(
      {"--quiet", "--json", "--work-dir", work, "solve", "nim", "3x5"}, out);
  ASSERT_EQ(run.code, 0);
  const auto j = nlohmann::json::parse(std::ifstream(out));
  const auto peak = j["peak_rss_bytes"].get<std::uint64_t>();
  EXPECT_GT(peak, 1u << 20);
  EXPECT_LE(peak, static_cast<std::uint64_t>(run.usage.ru_maxrss) * 1024);
  EXPECT_GT(j["seconds"].get<double>(), 0.0);
  EXPECT_EQ(j["work_dir"], work);
}

}  // namespace
