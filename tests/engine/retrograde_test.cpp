#include "zermelo/engine/retrograde.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "tests/test_util.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {
namespace {

SolveResult solve(const Game& g, const std::string& dir, bool in_ram,
                  std::uint64_t memory = 256ull << 20, bool preds = true) {
  SolveOptions o;
  o.job_dir = dir;
  o.in_ram = in_ram;
  o.memory_bytes = memory;
  o.use_predecessors = preds;
  return solve_retrograde(g, o);
}

// In RAM, out of core with un-moves, out of core with a reverse-edge run: one file, bit for bit.
TEST(Retrograde, InRamAndOutOfCoreValuesAreBitIdentical) {
  testing::ScratchDir dir;
  for (auto [name, opts] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"tictactoe", {}}, {"nim", {"3x5"}}, {"nim", {"4x6"}}}) {
    auto g = make_game(name, opts);
    std::string tag = name + (opts.empty() ? "" : opts[0]);
    auto ram = solve(*g, dir / (tag + "-ram"), true);
    auto disk = solve(*g, dir / (tag + "-disk"), false);
    auto edges = solve(*g, dir / (tag + "-edges"), false, 256ull << 20, false);
    EXPECT_EQ(ram.digest, disk.digest) << tag;
    EXPECT_EQ(ram.digest, edges.digest) << tag;
    EXPECT_EQ(ram.by_plies, disk.by_plies) << tag;
    EXPECT_EQ(ram.levels, disk.levels) << tag;
    EXPECT_EQ(ram.longest_key, disk.longest_key) << tag;
  }
}

TEST(Retrograde, TicTacToeIsADrawWithTheKnownCounts) {
  testing::ScratchDir dir;
  auto g = make_game("tictactoe");
  auto r = solve(*g, dir.str(), false);
  EXPECT_EQ(r.states, 5478u);         // legal positions reachable from the empty board
  EXPECT_EQ(r.by_plies.at(0), 942u);  // finished games with a line (958 terminal - 16 full draws)
  EXPECT_TRUE(lookup_value(r.values_path, g->start()).is_draw());
  // X in the centre, O on an edge: X wins.
  EXPECT_TRUE(lookup_value(r.values_path, *g->parse(".O./.X./...", nullptr)).is_win());
}

TEST(Retrograde, NimLostPositionsAreExactlyTheZeroXors) {
  testing::ScratchDir dir;
  for (auto [m, n] : std::vector<std::pair<unsigned, unsigned>>{{1, 8}, {2, 7}, {3, 6}, {4, 4}}) {
    auto g = make_game("nim", {std::to_string(m) + "x" + std::to_string(n)});
    auto r = solve(*g, dir / (std::to_string(m) + "x" + std::to_string(n)), false);
    EXPECT_EQ(r.draws, 0u);
    for (auto& kv : load_values(r.values_path)) {
      unsigned x = 0;
      for (std::uint64_t k = kv.key, i = 0; i < m; ++i, k /= n + 1)
        x ^= static_cast<unsigned>(k % (n + 1));
      ASSERT_EQ(Value::from_raw(kv.value).is_loss(), x == 0) << "state " << kv.key;
    }
  }
}

// The initial scan in many checkpointed chunks gives the same values, with un-moves and with
// reverse edges, and for a tier reading a lower tier.
TEST(Retrograde, ChunkedInitialScanGivesTheSameValues) {
  testing::ScratchDir dir;
  for (bool preds : {true, false}) {
    auto g = make_game("tictactoe");
    auto whole = solve(*g, dir / ("whole" + std::to_string(preds)), false, 256ull << 20, preds);
    SolveOptions o;
    o.job_dir = dir / ("chunked" + std::to_string(preds));
    o.memory_bytes = 256ull << 20;
    o.use_predecessors = preds;
    // 5,478 states: 8 chunks (3 under the sanitizers), the last one short
    o.init_chunk_states = testing::release_else_sanitized(700u, 2000u);
    EXPECT_EQ(solve_retrograde(*g, o).digest, whole.digest) << "predecessors " << preds;
  }
  auto tiered = make_game("nim", {"3x5", "tiered"});
  SolveOptions o;
  o.job_dir = dir / "tiers-whole";
  o.memory_bytes = 256ull << 20;
  auto whole = solve_tiers(*tiered, o, "all");
  o.job_dir = dir / "tiers-chunked";
  o.init_chunk_states = testing::release_else_sanitized(7u, 25u);
  auto chunked = solve_tiers(*tiered, o, "all");
  ASSERT_EQ(whole.size(), chunked.size());
  for (std::size_t i = 0; i < whole.size(); ++i)
    EXPECT_EQ(whole[i].digest, chunked[i].digest) << whole[i].tier;
}

// The levels' message sorts in 20 MiB, room for about 65,000 messages: the larger levels spill
// their messages as sorted runs and merge them, and the values are still the in-RAM solver's.
// Nim 6x8 (531,441 states, up to 1.86M messages a level: 202 runs spilled; a 130M budget alone
// spills none), 5x8 under the sanitizers (59,049 states, up to 281,300 a level: 17 runs).
TEST(Retrograde, SmallBudgetSpillsAndStillAgrees) {
  testing::ScratchDir dir;
  auto g = make_game("nim", {testing::release_else_sanitized("6x8", "5x8")});
  auto ram = solve(*g, dir / "ram", true);
  SolveOptions o;
  o.job_dir = dir / "disk";
  o.memory_bytes = 130ull << 20;
  o.message_sort_bytes = 20ull << 20;
  const SolveResult disk = solve_retrograde(*g, o);
  EXPECT_EQ(ram.digest, disk.digest);
  EXPECT_GE(disk.spilled_runs, testing::release_else_sanitized(100u, 8u));
  EXPECT_THROW(solve(*g, dir / "tiny", false, 32ull << 20), std::invalid_argument);
}

// Small blocks, so that late levels leave most blocks of the state run untouched: those are
// copied as stored, compressed (byte planes) or raw, and the values are still the in-RAM solver's.
TEST(Retrograde, UntouchedBlocksCopiedAsStoredGiveTheSameValues) {
  testing::ScratchDir dir;
  for (const char* variant : {"5x7", "4x6"}) {
    auto g = make_game("nim", {variant});
    auto ram = solve(*g, dir / (std::string(variant) + "-ram"), true);
    for (std::uint64_t raw_limit : {std::uint64_t{0}, std::uint64_t{8} << 30}) {
      SolveOptions o;
      o.job_dir = dir / (std::string(variant) + "-raw" + std::to_string(raw_limit));
      o.memory_bytes = 256ull << 20;
      o.block_bytes = 4096;  // 256 states a block
      o.raw_run_bytes = raw_limit;
      const SolveResult r = solve_retrograde(*g, o);
      EXPECT_EQ(r.digest, ram.digest) << variant << " raw limit " << raw_limit;
      EXPECT_GT(r.copied_records, 0u) << variant << " raw limit " << raw_limit;
    }
  }
}

TEST(Retrograde, CheckSolutionAcceptsTheSolveAndCatchesOneWrongValue) {
  testing::ScratchDir dir;
  auto g = make_game("tictactoe");
  auto r = solve(*g, dir / "ok", false);
  SolveOptions o;
  o.job_dir = dir / "ok";
  o.memory_bytes = 256ull << 20;
  EXPECT_EQ(check_solution(*g, r.values_path, {}, o).mismatches, 0u);
  // Rewrite the values with one win shortened by two plies: locally inconsistent.
  auto values = load_values(r.values_path);
  for (auto& kv : values)
    if (Value::from_raw(kv.value).is_win() && Value::from_raw(kv.value).plies() >= 3) {
      kv.value = Value::win(Value::from_raw(kv.value).plies() - 2).raw();
      break;
    }
  RunOptions ro;
  ro.record_size = sizeof(KeyValue);
  RunWriter w(dir / "bad.run", ro);
  for (auto& kv : values) w.push(kv);
  w.finish();
  auto bad = check_solution(*g, dir / "bad.run", {}, o);
  EXPECT_GE(bad.mismatches, 1u);
  ASSERT_FALSE(bad.examples.empty());
}

TEST(Retrograde, SampledCheckAcceptsTheSolveAndCatchesWrongValues) {
  testing::ScratchDir dir;
  auto g = make_game("nim", {"4x5"});
  auto r = solve(*g, dir / "ok", false);
  auto good = check_solution_sample(*g, r.values_path, {}, 500, 7);
  EXPECT_EQ(good.states, 500u);
  EXPECT_EQ(good.mismatches, 0u);
  // Every win one ply longer: each sampled win is now wrong, and so are states whose value rests on
  // them.
  auto values = load_values(r.values_path);
  for (auto& kv : values)
    if (Value::from_raw(kv.value).is_win() && Value::from_raw(kv.value).plies() > 0)
      kv.value = Value::win(Value::from_raw(kv.value).plies() + 2).raw();
  RunOptions ro;
  ro.record_size = sizeof(KeyValue);
  RunWriter w(dir / "bad.run", ro);
  for (auto& kv : values) w.push(kv);
  w.finish();
  EXPECT_GT(check_solution_sample(*g, dir / "bad.run", {}, 500, 7).mismatches, 50u);
}

// The CLI binary, killed at a chosen stage and at random moments, resumes to the same digest.
std::string cli_digest(const std::string& args, int* exit_code = nullptr) {
  auto r =
      testing::run_command(std::string(ZERMELO_CLI) + " --quiet --json " + args + " 2>/dev/null");
  if (exit_code) *exit_code = r.code;
  auto at = r.out.find("\"digest\": \"");
  return at == std::string::npos ? "" : r.out.substr(at + 11, 16);
}

// The CLI run with `args` and stopped by a fault injected right after `stage` is recorded; its
// exit code, 77 when the fault was injected.
int cli_stopped_after(const std::string& stage, const std::string& args) {
  int rc = 0;
  setenv("ZERMELO_FAULT_AFTER_STAGE", stage.c_str(), 1);
  cli_digest(args, &rc);
  unsetenv("ZERMELO_FAULT_AFTER_STAGE");
  return rc;
}

// Each stage in `stages`: a solve stopped right after it resumes to `reference`.
void expect_resumes_after_each_stage(const testing::ScratchDir& dir, const std::string& args,
                                     const std::vector<std::string>& stages,
                                     const std::string& reference) {
  for (const std::string& stage : stages) {
    const std::string work = "--work-dir " + (dir / stage) + " ";
    EXPECT_EQ(cli_stopped_after(stage, work + args), 77)
        << "the fault was not injected after " << stage;
    EXPECT_EQ(cli_digest(work + args), reference) << stage;
  }
}

TEST(RetrogradeResume, KilledAfterAStageResumesToTheSameDigest) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  testing::ScratchDir dir;
  std::string reference = cli_digest("--work-dir " + (dir / "ref") + " solve nim 4x7");
  ASSERT_EQ(reference.size(), 16u);
  expect_resumes_after_each_stage(
      dir, "solve nim 4x7 --checkpoint-states 100",
      {"enumerate", "init-chunk-1", "init", "initial-states", "level-0", "level-5"}, reference);
}

// A sharded solve (docs/shards.md) killed after a stage resumes to the unsharded digest; its
// work dir refuses another number of shards.
TEST(RetrogradeResume, ShardedSolveKilledAfterAStageResumesToTheUnshardedDigest) {
  testing::ScratchDir dir;
  const std::string reference = cli_digest("--work-dir " + (dir / "ref") + " solve nim 4x7");
  ASSERT_EQ(reference.size(), 16u);
  // A stop after each kind of stage; in Release also after a later level (level-5), which
  // resumes through level-0's code (each stop is two runs of the CLI, slow under the sanitizers).
  std::vector<std::string> stages = {"init", "initial-states", "level-0", "decided-3"};
  if (!testing::kSanitized) stages.push_back("level-5");
  expect_resumes_after_each_stage(dir, "--memory 512M solve nim 4x7 --shards 3", stages, reference);
  const std::string work = "--work-dir " + (dir / "other") + " --memory 512M solve nim 4x7";
  ASSERT_EQ(cli_stopped_after("level-2", work + " --shards 3"), 77);
  int rc = 0;
  EXPECT_EQ(cli_digest(work + " --shards 2", &rc), "");
  EXPECT_NE(rc, 0) << "a work dir of 3 shards resumed with 2";
}

TEST(RetrogradeResume, SigkillAtRandomMomentsThenResume) {
  testing::ScratchDir dir;
  std::string reference =
      cli_digest("--work-dir " + (dir / "ref") + " --memory 128M solve nim 5x7");
  ASSERT_EQ(reference.size(), 16u);
  for (int delay_ms : {150, 400, 900}) {
    std::string work = dir / ("k" + std::to_string(delay_ms));
    pid_t pid = fork();
    if (pid == 0) {
      execl(ZERMELO_CLI, ZERMELO_CLI, "--quiet", "--work-dir", work.c_str(), "--memory", "128M",
            "solve", "nim", "5x7", static_cast<char*>(nullptr));
      _exit(127);
    }
    usleep(static_cast<useconds_t>(delay_ms) * 1000);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    EXPECT_EQ(cli_digest("--work-dir " + work + " --memory 128M solve nim 5x7"), reference)
        << "killed after " << delay_ms << " ms";
  }
}

}  // namespace
}  // namespace zermelo

namespace zermelo {
namespace {

// Tier by tier, every child is looked up in a lower tier's values: the values must be those of
// the one-tier solve, in RAM and out of core alike.
TEST(RetrogradeTiers, TieredSolveEqualsTheWholeSolve) {
  testing::ScratchDir dir;
  auto whole = make_game("nim", {"3x4"});
  auto tiered = make_game("nim", {"3x4", "tiered"});
  auto all = load_values(solve(*whole, dir / "whole", false).values_path);
  std::map<StateKey, std::uint16_t> by_key;
  // A copy of each key: the records are packed, so kv.key is unaligned and no reference may bind.
  for (auto& kv : all) by_key[StateKey{kv.key}] = kv.value;
  SolveOptions o;
  o.memory_bytes = 256ull << 20;
  for (bool in_ram : {false, true}) {
    o.in_ram = in_ram;
    o.job_dir = dir / (in_ram ? "ram" : "disk");
    auto results = solve_tiers(*tiered, o, "all");
    ASSERT_EQ(results.size(), 13u);  // s0 .. s12
    std::size_t seen = 0;
    for (auto& r : results)
      for (auto& kv : load_values(r.values_path)) {
        ASSERT_EQ(kv.value, by_key.at(StateKey{kv.key}))
            << "tier " << r.tier << " state " << kv.key;
        ++seen;
      }
    EXPECT_EQ(seen, all.size());
  }
  for (std::size_t t = 0; t <= 12; ++t) {
    std::string tier = "s" + std::to_string(t);
    EXPECT_EQ(inspect_run(dir / ("ram/" + tier + "/values-" + tier + ".run")).digest,
              inspect_run(dir / ("disk/" + tier + "/values-" + tier + ".run")).digest);
  }
  EXPECT_THROW(solve_tiers(*tiered, o, "s99"), std::invalid_argument);
}

}  // namespace
}  // namespace zermelo
