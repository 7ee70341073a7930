// A stopped external solve (ext_solve.hpp) goes on from its record: killed after a forward ply,
// after reverse(KL), after a back-up ply or when finished, the same call on the same directory
// gives the sets of a solve in one go and of the in-RAM solve (digests, states, positions), and
// another job on that directory is refused. The kill is the record's fault hook
// (ZERMELO_EXT_FAULT_AFTER: the process ends with _Exit right after recording that stage) in a
// death test's child process (forked, so that it writes into the parent's scratch directory).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/dfa/ext_solve.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;
using namespace zermelo::dfa;

// 3x4 with the known sets of 6 retrograde steps: 7 forward plies, a few seconds a solve.
struct Job {
  breakthrough::Board board = breakthrough::parse_board("3x4");
  std::unique_ptr<Manager> m = breakthrough::make_manager(board, 256ull << 20);
  SetGame g = breakthrough::make_game(*m, board);
  RetrogradeResult known = retrograde(g, 6);

  unsigned threads = 1;

  ExtReachResult solve(const std::string& dir, const std::string& identity = "3x4 J=6") {
    // Two threads run two operations at once, each with half the budget.
    ExtOptions o{dir + "/scratch", threads == 1 ? 64ull << 20 : 128ull << 20};
    o.threads = threads;
    return ext_solve_by_reach(g, known.won, known.lost, 200, dir, identity, o);
  }
};

void expect_same_sets(const ExtReachResult& a, const ExtReachResult& b) {
  EXPECT_EQ(a.start_won, b.start_won);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    EXPECT_EQ(a.steps[i].reach.digest, b.steps[i].reach.digest) << "ply " << i;
    EXPECT_EQ(a.steps[i].undecided.digest, b.steps[i].undecided.digest) << "ply " << i;
    EXPECT_EQ(a.steps[i].won.digest, b.steps[i].won.digest) << "ply " << i;
    EXPECT_EQ(a.steps[i].lost.digest, b.steps[i].lost.digest) << "ply " << i;
    EXPECT_EQ(a.steps[i].lost.positions, b.steps[i].lost.positions) << "ply " << i;
  }
}

// The external solve against the in-RAM one: digests of the canonical forms, and the counts.
// (`dir`: the test's own; a second ScratchDir in one test is the same directory.)
void expect_in_ram_sets(Job& job, const ExtReachResult& ext,
                        const zermelo::testing::ScratchDir& dir) {
  const ReachResult ram = solve_by_reach(job.g, job.known.won, job.known.lost, 200);
  EXPECT_EQ(ext.start_won, ram.start_won);
  ASSERT_EQ(ext.steps.size(), ram.reach.size());
  for (std::size_t i = 0; i < ext.steps.size(); ++i) {
    const ExtReachStep& st = ext.steps[i];
    EXPECT_EQ(st.reach.digest, save_ext(ram.reach[i], dir / "r").digest) << "ply " << i;
    EXPECT_EQ(st.won.digest, save_ext(ram.won[i], dir / "w").digest) << "ply " << i;
    EXPECT_EQ(st.lost.digest, save_ext(ram.lost[i], dir / "l").digest) << "ply " << i;
    ASSERT_TRUE(st.reach.counted && st.won.counted && st.lost.counted) << "ply " << i;
    EXPECT_EQ(st.reach.positions, ram.reach[i].count()) << "ply " << i;
    EXPECT_EQ(st.won.positions, ram.won[i].count()) << "ply " << i;
    EXPECT_EQ(st.lost.positions, ram.lost[i].count()) << "ply " << i;
    EXPECT_EQ(st.reach.bytes, ram.reach[i].bytes()) << "ply " << i;
  }
}

// The solve in `dir` stopped by the fault hook right after `stage` is recorded.
void kill_after(Job& job, const std::string& dir, const std::string& stage) {
  GTEST_FLAG_SET(death_test_style, "fast");  // the child writes into this ScratchDir
  EXPECT_EXIT(
      {
        ::setenv("ZERMELO_EXT_FAULT_AFTER", stage.c_str(), 1);
        job.solve(dir);
      },
      ::testing::ExitedWithCode(77), "")
      << "stage " << stage;
}

TEST(ExtSolveResume, KilledSolvesResumeToTheSetsOfOneRunAndOfTheInRamSolve) {
  Job job;
  zermelo::testing::ScratchDir dir;
  const ExtReachResult whole = job.solve(dir / "whole");
  expect_in_ram_sets(job, whole, dir);
  EXPECT_EQ(whole.resumed_plies, 0u);
  // Stopped in the forward search, right after reverse(KL), and in the back-up (twice in one
  // directory: a resumed run is itself stopped and resumed).
  struct Case {
    std::vector<std::string> stages;
    std::size_t resumed_plies, resumed_backup_plies;
  };
  std::vector<Case> cases = {Case{{"forward-3"}, 4, 0}, Case{{"backup-5", "backup-2"}, 7, 5}};
  // Under the sanitizers a forward and a doubled back-up kill only (the same record and resume
  // code; each solve there takes several times as long).
  if (!zermelo::testing::kSanitized)
    cases.insert(cases.end(), {Case{{"into-known-lost"}, 7, 0}, Case{{"backup-0"}, 7, 7}});
  for (const Case& c : cases) {
    const std::string d = dir / ("killed-" + c.stages.back());
    for (const std::string& stage : c.stages) kill_after(job, d, stage);
    const ExtReachResult resumed = job.solve(d);
    expect_same_sets(resumed, whole);
    EXPECT_EQ(resumed.resumed_plies, c.resumed_plies) << c.stages.back();
    EXPECT_EQ(resumed.resumed_backup_plies, c.resumed_backup_plies) << c.stages.back();
    EXPECT_FALSE(std::filesystem::exists(d + "/sets")) << "the sets are removed at the end";
  }
}

TEST(ExtSolveResume, TwoThreadsGiveTheSetsOfOneAndResumeAcrossThreadCounts) {
  Job job;
  zermelo::testing::ScratchDir dir;
  const ExtReachResult one = job.solve(dir / "one");
  job.threads = 2;
  expect_same_sets(job.solve(dir / "two"), one);
  // Stopped on two threads in the forward search and in the back-up (between the two pairs of
  // operations run at once), resumed on two and finished on one.
  const std::string d = dir / "killed";
  kill_after(job, d, "forward-2");
  kill_after(job, d, "backup-4");
  job.threads = 1;
  const ExtReachResult resumed = job.solve(d);
  expect_same_sets(resumed, one);
  EXPECT_EQ(resumed.resumed_plies, one.steps.size());
  EXPECT_EQ(resumed.resumed_backup_plies, one.steps.size() - 4);
}

TEST(ExtSolveResume, AFinishedDirectoryGivesItsRecordedResult) {
  Job job;
  zermelo::testing::ScratchDir dir;
  const ExtReachResult whole = job.solve(dir / "whole");
  EXPECT_EQ(whole.resumed_plies, 0u);
  const ExtReachResult again = job.solve(dir / "whole");
  expect_same_sets(again, whole);
  EXPECT_EQ(again.resumed_plies, whole.steps.size());
  EXPECT_EQ(again.resumed_backup_plies, whole.steps.size());
}

TEST(ExtSolveResume, AnotherJobOnTheDirectoryIsRefused) {
  Job job;
  zermelo::testing::ScratchDir dir;
  kill_after(job, dir / "solve", "forward-2");
  // Other words, and other known sets under the same words (W(5)/L(5)).
  EXPECT_THROW(job.solve(dir / "solve", "3x4 J=5"), std::runtime_error);
  job.known = retrograde(job.g, 5);
  try {
    job.solve(dir / "solve");
    ADD_FAILURE() << "a solve with other known sets ran on the directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("holds another external solve"), std::string::npos)
        << e.what();
  }
}

TEST(ExtSolveResume, AnEditedRecordIsRefused) {
  Job job;
  zermelo::testing::ScratchDir dir;
  kill_after(job, dir / "solve", "forward-2");
  const std::string path = dir / "solve/manifest.json";
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = text.find("\"ply\": 1");
  ASSERT_NE(at, std::string::npos) << text;
  text[at + 7] = '2';
  std::ofstream(path) << text;
  EXPECT_THROW(job.solve(dir / "solve"), std::runtime_error);
}

}  // namespace
