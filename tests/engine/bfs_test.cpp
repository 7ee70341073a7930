#include "zermelo/engine/bfs.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tests/test_util.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {
namespace {

TEST(Bfs, TicTacToeLevelsAreTheKnownOnes) {
  testing::ScratchDir dir;
  auto g = make_game("tictactoe");
  BfsOptions o;
  o.job_dir = dir.str();
  o.memory_bytes = 256ull << 20;
  BfsResult r = breadth_first(*g, o);
  EXPECT_EQ(r.new_states, (std::vector<std::uint64_t>{1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78}));
  EXPECT_EQ(r.states, 5478u);
  EXPECT_EQ(r.terminal_states, 958u);
  EXPECT_EQ(inspect_run(r.visited_path).record_count, 5478u);
}

// Against a plain in-memory search over the same game: every ply, and the edge count.
TEST(Bfs, AgreesWithAnInMemorySearch) {
  testing::ScratchDir dir;
  auto g = make_game("nim", {"3x4"});
  std::set<StateKey> seen{g->start()};
  std::vector<StateKey> frontier{g->start()};
  std::vector<std::uint64_t> levels{1};
  std::uint64_t edges = 0;
  std::vector<Child> kids;
  while (!frontier.empty()) {
    std::vector<StateKey> next;
    for (auto s : frontier) {
      g->successors(s, kids);
      for (auto& c : kids)
        if (++edges, seen.insert(c.key).second) next.push_back(c.key);
    }
    if (!next.empty()) levels.push_back(next.size());
    frontier.swap(next);
  }
  BfsOptions o;
  o.job_dir = dir.str();
  o.memory_bytes = 256ull << 20;
  BfsResult full = breadth_first(*g, o);
  EXPECT_EQ(full.new_states, levels);
  EXPECT_EQ(full.edges, edges);
}

// The published state-graph counts of Onitama (boar cards), through sorted runs on disk.
TEST(Bfs, OnitamaPublishedCountsOutOfCore) {
  testing::ScratchDir dir;
  struct Row {
    const char* board;
    std::uint64_t states, edges;
  };
  for (Row row : {Row{"1x2", 2, 1}, Row{"2x2", 6, 5}, Row{"3x2", 658, 1007}, Row{"3x3", 59666, 168860}, Row{"2x4", 3031, 6055}}) {
    auto g = make_game("onitama", {row.board});
    BfsOptions o;
    o.job_dir = dir / row.board;
    o.memory_bytes = 128ull << 20;
    BfsResult r = breadth_first(*g, o);
    EXPECT_EQ(r.states, row.states) << row.board;
    EXPECT_EQ(r.edges + r.game_ending_moves, row.edges) << row.board;
  }
}

}  // namespace
}  // namespace zermelo
