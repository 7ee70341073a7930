// The `zermelo` binary end to end: exit codes and messages a user sees.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_util.hpp"

namespace {

using CliRun = zermelo::testing::CommandResult;

CliRun zermelo(const std::string& args) {
  return zermelo::testing::run_command(std::string(ZERMELO_CLI) + " --quiet " + args + " 2>&1");
}

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

TEST(Cli, SolveVerifyInfoAndACorruptedFile) {
  zermelo::testing::ScratchDir dir;
  CliRun solve = zermelo("--work-dir " + (dir / "ttt") + " solve tictactoe");
  ASSERT_EQ(solve.code, 0) << solve.out;
  EXPECT_TRUE(contains(solve.out, "5478")) << solve.out;
  EXPECT_TRUE(contains(solve.out, "start position: draw")) << solve.out;

  CliRun query = zermelo("--work-dir " + (dir / "ttt") + " query tictactoe .O./.X./...");
  EXPECT_EQ(query.code, 0) << query.out;
  EXPECT_TRUE(contains(query.out, "value: win in ")) << query.out;  // X centre, O edge: X wins
  EXPECT_NE(zermelo("--work-dir " + (dir / "ttt") + " query tictactoe XXXX").code, 0);

  CliRun verify = zermelo("verify " + (dir / "ttt"));
  EXPECT_EQ(verify.code, 0) << verify.out;
  EXPECT_TRUE(contains(verify.out, "all checksums and digests match")) << verify.out;

  std::string values = dir / "ttt/values-all.run";
  CliRun info = zermelo("--json info " + values);
  EXPECT_EQ(info.code, 0);
  EXPECT_TRUE(contains(info.out, "\"records\": 5478")) << info.out;

  // Flip one byte in the middle of the first block: verify names the file and the block.
  {
    std::fstream f(values, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 + 100);
    f.put('\x5a');
  }
  CliRun bad = zermelo("verify " + (dir / "ttt"));
  EXPECT_EQ(bad.code, 1) << bad.out;
  EXPECT_TRUE(contains(bad.out, "values-all.run: block 0")) << bad.out;
  EXPECT_TRUE(contains(bad.out, "checksum mismatch")) << bad.out;
}

// Solved tier by tier, the whole game's table is the sum of the tiers' and equals the distribution
// of the same game solved as one tier.
TEST(Cli, TieredSolveSumsItsTiersIntoTheWholeGame) {
  zermelo::testing::ScratchDir dir;
  CliRun tiered = zermelo("--json --work-dir " + (dir / "tiered") + " solve nim 3x5 tiered");
  CliRun whole = zermelo("--json --work-dir " + (dir / "whole") + " solve nim 3x5");
  ASSERT_EQ(tiered.code, 0) << tiered.out;
  ASSERT_EQ(whole.code, 0) << whole.out;
  auto t = nlohmann::json::parse(tiered.out), w = nlohmann::json::parse(whole.out);
  ASSERT_GT(t["tiers"].size(), 1u);
  std::uint64_t states = 0;
  for (auto& tier : t["tiers"]) states += tier["states"].get<std::uint64_t>();
  const auto& game = t["whole_game"];
  EXPECT_EQ(game["states"], states);
  EXPECT_EQ(game["states"], w["states"]);
  EXPECT_EQ(game["by_plies"], w["by_plies"]);
  EXPECT_EQ(game["draws"], w["draws"]);
  EXPECT_EQ(game["start_value"], w["start_value"]);
  EXPECT_EQ(game["terminal"].get<std::uint64_t>() + game["non_terminal"].get<std::uint64_t>(),
            states);

  CliRun text = zermelo("--work-dir " + (dir / "tiered") + " solve nim 3x5 tiered --verbose");
  EXPECT_TRUE(contains(text.out, "whole game, all "))
      << text.out;  // more tiers than columns: the totals

  // The top tier alone in a fresh work dir: the tiers it reads are solved first, and its values
  // are those of the whole tiered solve.
  CliRun top = zermelo("--json --work-dir " + (dir / "top") + " solve nim 3x5 tiered --tier s15");
  ASSERT_EQ(top.code, 0) << top.out;
  EXPECT_EQ(nlohmann::json::parse(top.out)["digest"], t["tiers"].back()["digest"]);
}

// The perfect player of a solved work dir never does worse than the start's value, on either
// side; a game cut short of a promised win is reported and fails the command.
TEST(Cli, PerfectPlayerKeepsTheSolvedValue) {
  zermelo::testing::ScratchDir dir;
  ASSERT_EQ(zermelo("--work-dir " + (dir / "ttt") + " solve tictactoe").code, 0);
  for (const char* side : {"first", "second"}) {
    CliRun r =
        zermelo("--json --work-dir " + (dir / "ttt") + " play tictactoe --games 300 --as " + side);
    ASSERT_EQ(r.code, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["start_value"], "draw");
    EXPECT_EQ(j["losses"], 0) << side;
    EXPECT_GT(j["wins"].get<int>(), 100) << side << ": random play loses most games";
  }
  ASSERT_EQ(zermelo("--work-dir " + (dir / "nim") + " solve nim 3x5").code, 0);
  CliRun won = zermelo("--json --work-dir " + (dir / "nim") + " play nim 3x5 --games 200");
  ASSERT_EQ(won.code, 0) << won.out;
  EXPECT_EQ(nlohmann::json::parse(won.out)["wins"], 200);
  CliRun cut = zermelo("--work-dir " + (dir / "nim") + " play nim 3x5 --games 5 --max-plies 2");
  EXPECT_EQ(cut.code, 1) << cut.out;
  EXPECT_TRUE(contains(cut.out, "SHORT OF THE VALUE")) << cut.out;
  CliRun unsolved = zermelo("--work-dir " + (dir / "none") + " play nim 3x5");
  EXPECT_NE(unsolved.code, 0);
  EXPECT_TRUE(contains(unsolved.out, "no solved game here")) << unsolved.out;
}

TEST(Cli, BadInputIsAClearErrorAndNonZeroExit) {
  zermelo::testing::ScratchDir dir;
  CliRun r = zermelo("solve chess");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.out, "unknown game 'chess'")) << r.out;
  r = zermelo("--memory lots games");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.out, "bad size 'lots'")) << r.out;
  r = zermelo("--work-dir " + (dir / "n") + " solve nim 3by5");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.out, "HEAPSxSTICKS")) << r.out;
  r = zermelo("info " + (dir / "missing.run"));
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.out, "missing.run")) << r.out;
  std::ofstream(dir / "junk.run")
      << "this is not a run file, but it is long enough to have a header? no";
  r = zermelo("verify " + (dir / "junk.run"));
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "truncated")) << r.out;
  // A job directory belongs to one job.
  ASSERT_EQ(zermelo("--work-dir " + (dir / "j") + " solve nim 2x3").code, 0);
  r = zermelo("--work-dir " + (dir / "j") + " solve nim 3x3");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.out, "holds another job")) << r.out;
}

// A search that --max-ply stopped cannot say a state is never reached: XO./.X./..O is first
// reached at ply 4, and tic-tac-toe's states go on to ply 9.
TEST(Cli, BfsCutShortByMaxPlyNeverCallsAStateUnreached) {
  zermelo::testing::ScratchDir dir;
  const std::string state = " --keep-plies --ply-of 'XO./.X./..O'";
  CliRun cut =
      zermelo("--work-dir " + (dir / "cut") + " bfs tictactoe --all-states --max-ply 3" + state);
  ASSERT_EQ(cut.code, 0) << cut.out;
  EXPECT_FALSE(contains(cut.out, "never reached")) << cut.out;
  EXPECT_TRUE(contains(cut.out, "XO./.X./..O: not reached by ply 3")) << cut.out;
  EXPECT_TRUE(contains(cut.out, "not reached by ply 3 (--max-ply) 5144")) << cut.out;
  CliRun json = zermelo("--json --work-dir " + (dir / "cut") +
                        " bfs tictactoe --all-states --max-ply 3" + state);
  ASSERT_EQ(json.code, 0) << json.out;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_FALSE(doc.at("complete").get<bool>());
  EXPECT_EQ(doc.at("max_ply"), 3);
  EXPECT_FALSE(doc.contains("unreached")) << json.out;
  EXPECT_EQ(doc.at("not_reached_by_max_ply"), 5478 - 334);

  CliRun whole =
      zermelo("--json --work-dir " + (dir / "whole") + " bfs tictactoe --all-states" + state);
  ASSERT_EQ(whole.code, 0) << whole.out;
  const auto all = nlohmann::json::parse(whole.out);
  EXPECT_TRUE(all.at("complete").get<bool>());
  EXPECT_EQ(all.at("ply_of").at("XO./.X./..O"), 4);
  EXPECT_EQ(all.at("states").get<std::uint64_t>() + all.at("unreached").get<std::uint64_t>(),
            5478u);
}

}  // namespace

#include <sys/resource.h>
#include <unistd.h>

namespace {

// The CLI solving `game` in `work` with --memory `memory`, and more `options`; its peak RSS in KiB.
long peak_rss_kib_of_solve(const std::string& work, const char* memory,
                           std::vector<std::string> args) {
  args.insert(args.begin(), {"--quiet", "--json", "--work-dir", work, "--memory", memory,
                             "--threads", "2", "solve"});
  const auto run = zermelo::testing::run_cli_measured(args, "/dev/null");
  EXPECT_EQ(run.code, 0);
  return run.usage.ru_maxrss;
}

// Peak memory is part of correctness: the whole process stays under --memory.
TEST(CliMemory, PeakRssStaysUnderTheBudget) {
#ifdef ZERMELO_SANITIZED
  GTEST_SKIP() << "under AddressSanitizer the peak RSS holds its shadow memory, not the program's";
#endif
  zermelo::testing::ScratchDir dir;
  const long kib = peak_rss_kib_of_solve(dir / "nim", "160M", {"nim", "6x8"});
  EXPECT_LT(kib, 160 * 1024) << "peak RSS " << kib << " KiB";
}

// With shards too: their passes, outboxes and step 3's writers come out of --memory. A budget
// that two shards fit stays a limit; one that sixteen cannot fit is refused before any file is
// made, with what they would need.
TEST(CliMemory, ShardsFitInTheBudgetOrAreRefusedUpFront) {
#ifdef ZERMELO_SANITIZED
  GTEST_SKIP() << "under AddressSanitizer the peak RSS holds its shadow memory, not the program's";
#endif
  zermelo::testing::ScratchDir dir;
  const long kib = peak_rss_kib_of_solve(dir / "two", "160M", {"nim", "6x8", "--shards", "2"});
  EXPECT_LT(kib, 160 * 1024) << "peak RSS " << kib << " KiB";
  const CliRun refused = zermelo("--work-dir " + (dir / "sixteen") +
                                 " --memory 160M --threads 2 solve nim 6x8 --shards 16");
  EXPECT_NE(refused.code, 0);
  EXPECT_TRUE(contains(refused.out, "is below the 484M that 16 shards need")) << refused.out;
  EXPECT_TRUE(std::filesystem::is_empty(dir / "sixteen")) << "the refused solve made files";
}

// The breadth-first search over all states too: a shard count whose inboxes and passes cannot
// fit --memory is refused before any file is made, with the budget, the shards and the floor;
// unsharded, a budget below the search's floor likewise.
TEST(CliMemory, BfsShardsThatCannotFitAreRefusedUpFront) {
  zermelo::testing::ScratchDir dir;
  const CliRun refused = zermelo("--work-dir " + (dir / "sixteen") +
                                 " --memory 160M --threads 2 bfs nim 4x6 --all-states --shards 16");
  EXPECT_NE(refused.code, 0);
  EXPECT_TRUE(
      contains(refused.out, "--memory 160M is below the 484M that 16 shards need, 2 at once"))
      << refused.out;
  EXPECT_TRUE(std::filesystem::is_empty(dir / "sixteen")) << "the refused search made files";
  const CliRun small =
      zermelo("--work-dir " + (dir / "small") + " --memory 40M bfs nim 4x6 --all-states");
  EXPECT_NE(small.code, 0);
  EXPECT_TRUE(contains(small.out, "--memory 40M is below the breadth-first search's floor (73M)"))
      << small.out;
  const CliRun fits = zermelo("--json --work-dir " + (dir / "two") +
                              " --memory 160M --threads 2 bfs nim 4x6 --all-states --shards 2");
  EXPECT_EQ(fits.code, 0) << fits.out;
}

}  // namespace
