// The solve's stage and file names (pipeline/retrograde/layout.hpp): spelled as earlier versions
// wrote them, so that their work dirs still resume, read back by type, and cleaned from the same
// table once the solve is finished.
#include "pipeline/retrograde/layout.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/test_util.hpp"

namespace zermelo::retro {
namespace {

namespace fs = std::filesystem;

TEST(RetrogradeLayout, StageNamesAreTheOnDiskOnesAndReadBack) {
  const std::pair<Stage, const char*> names[] = {
      {Stage::enumerate(), "enumerate"}, {Stage::scan_chunk(3), "init-chunk-3"},
      {Stage::scan(), "init"},           {Stage::initial_states(), "initial-states"},
      {Stage::level(12), "level-12"},    {Stage::decided(13), "decided-13"},
      {Stage::final(), "final"}};
  for (const auto& [stage, name] : names) {
    EXPECT_EQ(stage.name(), name);
    const auto back = Stage::parse(name);
    ASSERT_TRUE(back) << name;
    EXPECT_EQ(back->kind, stage.kind) << name;
    EXPECT_EQ(back->n, stage.n) << name;
  }
  for (const char* other : {"level-", "level-1x", "levels-2", "init-chunk", "tier-3", "finals"})
    EXPECT_FALSE(Stage::parse(other)) << other;
}

TEST(RetrogradeLayout, FileNamesAreTheOnDiskOnes) {
  const Layout files("job");
  EXPECT_EQ(files.path(Run::keys), "job/keys.run");
  EXPECT_EQ(files.path(Run::states, 4), "job/states-4.run");
  EXPECT_EQ(files.path(Run::frontier, 5), "job/frontier-5.run");
  EXPECT_EQ(files.path(Run::decided_part, 2), "job/decided-init-2.run");
  EXPECT_EQ(files.path(Run::scheduled), "job/scheduled.run");
  EXPECT_EQ(files.path(Run::scheduled_part, 0), "job/scheduled-0.run");
  EXPECT_EQ(files.scratch(Sorter::messages), "job/messages.sort");
  EXPECT_EQ(files.values("3v3"), "job/values-3v3.run");
}

TEST(RetrogradeLayout, AShardKeepsTheSameNamesInItsFolderAndOneShardIsTheJob) {
  const testing::ScratchDir scratch;
  const Layout job(scratch.str());
  EXPECT_EQ(job.shard(0, 1).path(Run::states, 4), scratch / "states-4.run");
  EXPECT_EQ(job.shard(0, 1).scratch(Sorter::messages), scratch / "messages.sort");
  EXPECT_FALSE(fs::exists(scratch / "shard-0"));
  EXPECT_EQ(job.shard(2, 3).path(Run::states, 4), scratch / "shard-2/states-4.run");
  EXPECT_EQ(job.shard(2, 3).path(Run::frontier, 5), scratch / "shard-2/frontier-5.run");
  EXPECT_EQ(job.shard(2, 3).path(Run::scheduled), scratch / "shard-2/scheduled.run");
  EXPECT_EQ(job.shard(6, 7).scratch(Sorter::messages), scratch / "shard-6/messages.sort");
  EXPECT_TRUE(fs::is_directory(scratch / "shard-2"));
}

TEST(RetrogradeLayout, CleanupRemovesEveryWorkingFileAndKeepsTheResult) {
  const testing::ScratchDir scratch;
  const fs::path dir = scratch.str();
  const Layout files(scratch.str());
  const std::set<std::string> kept = {"manifest.json", "values-all.run", "notes.txt",
                                      "states-x.run", "level-3.run"};
  const std::set<std::string> working = {
      "keys.run",        "answers.run",        "scheduled.run",   "edges.run",
      "undecided-0.run", "decided-init-1.run", "scheduled-2.run", "lookups-3.run",
      "edges-4.run",     "states-17.run",      "frontier-18.run", "frontier-19.run.tmp",
      "keys.run.tmp"};
  for (const auto& set : {kept, working})
    for (const std::string& name : set) std::ofstream(dir / name) << "x";
  fs::create_directories(dir / "messages.sort");
  std::ofstream(dir / "messages.sort" / "run-0.run") << "x";
  std::ofstream(fs::path(files.shard(1, 2).path(Run::states, 3))) << "x";
  fs::create_directories(dir / "shard-notes");
  files.remove_working_files();
  EXPECT_FALSE(fs::exists(dir / "shard-1"));
  EXPECT_TRUE(fs::exists(dir / "shard-notes"));
  for (const std::string& name : kept) EXPECT_TRUE(fs::exists(dir / name)) << name;
  for (const std::string& name : working) EXPECT_FALSE(fs::exists(dir / name)) << name;
  EXPECT_FALSE(fs::exists(dir / "messages.sort"));
}

}  // namespace
}  // namespace zermelo::retro
