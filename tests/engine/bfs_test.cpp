#include "zermelo/engine/bfs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/engine/plain_bfs.hpp"
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
  EXPECT_EQ(r.new_states,
            (std::vector<std::uint64_t>{1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78}));
  EXPECT_EQ(r.states, 5478u);
  EXPECT_EQ(r.terminal_states, 958u);
  EXPECT_EQ(inspect_run(r.visited_path).record_count, 5478u);
}

// Against a plain in-memory search over the same game: every ply, and the edge count.
TEST(Bfs, AgreesWithAnInMemorySearch) {
  testing::ScratchDir dir;
  auto g = make_game("nim", {"3x4"});
  const testing::PlainBfs plain = testing::plain_bfs(*g);
  BfsOptions o;
  o.job_dir = dir.str();
  o.memory_bytes = 256ull << 20;
  BfsResult full = breadth_first(*g, o);
  EXPECT_EQ(full.new_states, plain.levels);
  EXPECT_EQ(full.edges, plain.edges);
  EXPECT_EQ(full.states, plain.ply_of.size());
}

// The published state-graph counts of Onitama (boar cards), through sorted runs on disk.
TEST(Bfs, OnitamaPublishedCountsOutOfCore) {
  testing::ScratchDir dir;
  struct Row {
    const char* board;
    std::uint64_t states, edges;
  };
  for (Row row : {Row{"1x2", 2, 1}, Row{"2x2", 6, 5}, Row{"3x2", 658, 1007},
                  Row{"3x3", 59666, 168860}, Row{"2x4", 3031, 6055}}) {
    auto g = make_game("onitama", {row.board});
    BfsOptions o;
    o.job_dir = dir / row.board;
    o.memory_bytes = 128ull << 20;
    BfsResult r = breadth_first(*g, o);
    EXPECT_EQ(r.states, row.states) << row.board;
    EXPECT_EQ(r.edges + r.game_ending_moves, row.edges) << row.board;
  }
}

// Two searches of one game found the same plies, edges, game-ending moves and terminal states.
void expect_same_plies_and_edges(const BfsResult& got, const BfsResult& want,
                                 const std::string& tag) {
  EXPECT_EQ(got.new_states, want.new_states) << tag;
  EXPECT_EQ(got.edges, want.edges) << tag;
  EXPECT_EQ(got.game_ending_moves, want.game_ending_moves) << tag;
  EXPECT_EQ(got.terminal_states, want.terminal_states) << tag;
}

// The search over the run of unvisited states gives the same plies, edges and terminal states as
// the search over the visited run, on games with and without tiers and groups, with small blocks
// (so that untouched ones are copied) and a small budget (so that successors spill); what it
// leaves unreached is the rest of what the game enumerates.
TEST(Bfs, AllStatesAgreesWithTheVisitedRun) {
  testing::ScratchDir dir;
  struct Case {
    const char* game;
    std::vector<std::string> options;
    bool filtered;  // the game numbers groups: the filter must drop something
  };
  std::vector<Case> cases = {Case{"tictactoe", {}, false}, Case{"nim", {"3x4"}, false},
                             Case{"onitama", {"3x3"}, true}, Case{"ostle-mini", {"3x3:p2"}, true}};
  if (!testing::kSanitized) cases.push_back(Case{"ostle-mini", {"3x4:p3"}, true});
  for (const Case& c : cases) {
    const std::string name =
        std::string(c.game) + (c.options.empty() ? "" : "-" + c.options.front());
    auto g = make_game(c.game, c.options);
    BfsOptions o;
    o.memory_bytes = 200ull << 20;
    o.job_dir = dir / (name + "-visited");
    const BfsResult visited = breadth_first(*g, o);
    o.job_dir = dir / (name + "-unvisited");
    o.all_states = true;
    o.block_bytes = 4096;
    const BfsResult all = breadth_first(*g, o);
    expect_same_plies_and_edges(all, visited, name);
    EXPECT_EQ(all.states, visited.states) << name;
    std::uint64_t enumerated = 0;
    for (const Tier& t : g->tiers()) g->enumerate(t.name, [&](StateKey) { ++enumerated; });
    EXPECT_EQ(all.enumerated, enumerated) << name;
    EXPECT_EQ(all.unreached, enumerated - visited.states) << name;
    EXPECT_EQ(inspect_run(all.unreached_path).record_count, all.unreached) << name;
    EXPECT_EQ(all.filter_bits > 0 && all.filtered > 0, c.filtered)
        << name << ": " << all.filtered << " filtered";
    EXPECT_EQ(all.keyless > 0, g->groups_share_moves())
        << name << ": " << all.keyless << " unkeyed";
    // Without the record of moves a group took, every move is keyed: the same search.
    o.job_dir = dir / (name + "-every-key");
    o.group_moves = false;
    const BfsResult every_key = breadth_first(*g, o);
    o.group_moves = true;
    EXPECT_EQ(every_key.keyless, 0u) << name;
    EXPECT_EQ(every_key.new_states, all.new_states) << name;
    EXPECT_EQ(every_key.edges, all.edges) << name;
    EXPECT_EQ(every_key.game_ending_moves, all.game_ending_moves) << name;
    EXPECT_EQ(every_key.unreached, all.unreached) << name;
    // Run again in the same directory: the finished search is read back, not redone.
    const BfsResult again = breadth_first(*g, o);
    EXPECT_TRUE(again.resumed) << name;
    EXPECT_EQ(again.new_states, all.new_states) << name;
  }
}

// Expanding the states the rules decide (a player declining an immediate win) reaches states the
// solver's graph does not: both searches against a plain in-memory search that expands them too.
TEST(Bfs, ExpandingDecidedStatesFollowsEveryLegalMove) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", {testing::release_else_sanitized("3x4:p3", "3x3:p3")});
  const testing::PlainBfs plain = testing::plain_bfs(*g, /*expand_decided=*/true);
  BfsOptions o;
  o.memory_bytes = 200ull << 20;
  o.job_dir = dir / "solver-graph";
  ASSERT_GT(plain.ply_of.size(), breadth_first(*g, o).states)
      << "the case should reach more states through decided ones";
  o.expand_decided = true;
  for (bool all_states : {false, true}) {
    o.all_states = all_states;
    o.block_bytes = 4096;
    o.job_dir = dir / (all_states ? "all-states" : "visited");
    const BfsResult r = breadth_first(*g, o);
    EXPECT_EQ(r.new_states, plain.levels) << all_states;
    EXPECT_EQ(r.states, plain.ply_of.size()) << all_states;
    EXPECT_EQ(r.edges, plain.edges) << all_states;
    EXPECT_EQ(r.game_ending_moves, plain.game_ending_moves) << all_states;
    EXPECT_EQ(r.terminal_states, plain.decided) << all_states;
  }
  // A work dir of one kind of search does not resume the other.
  o.all_states = false;
  o.expand_decided = false;
  o.job_dir = dir / "visited";
  EXPECT_THROW(breadth_first(*g, o), std::exception);
}

// With every ply's run kept, the ply of any state is looked up from them: each state's ply in a
// plain in-memory search (a sample), in both searches; a state never reached has none.
TEST(Bfs, KeptPliesGiveEveryStatesPly) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", {testing::release_else_sanitized("3x4:p3", "3x3:p3")});
  const testing::PlainBfs plain = testing::plain_bfs(*g);
  const std::size_t every = testing::release_else_sanitized(509, 101);  // a few hundred states
  BfsOptions o;
  o.memory_bytes = 200ull << 20;
  o.keep_plies = true;
  o.block_bytes = 4096;  // runs of many blocks: the lookup picks one
  for (bool all_states : {false, true}) {
    o.all_states = all_states;
    o.job_dir = dir / (all_states ? "all-states" : "visited");
    const BfsResult r = breadth_first(*g, o);
    ASSERT_EQ(r.ply_runs.size(), plain.levels.size()) << all_states;
    // A lookup decodes a block of each ply's run: a sample of a few hundred states.
    BfsPlyLookup lookup(r.ply_runs);
    std::size_t wrong = 0, looked_up = 0, i = 0;
    for (const auto& [key, ply] : plain.ply_of)
      if (i++ % every == 0)
        ++looked_up, wrong += lookup.ply_of(key) != std::optional<std::uint32_t>(ply);
    EXPECT_GT(looked_up, 100u);
    EXPECT_EQ(wrong, 0u) << all_states;
    if (all_states) {
      RunReader unreached(r.unreached_path);
      StateKey k;
      ASSERT_TRUE(unreached.next(k));
      EXPECT_EQ(lookup.ply_of(k), std::nullopt);
    }
    // Read back as finished, the search still names its ply runs.
    EXPECT_EQ(breadth_first(*g, o).ply_runs, r.ply_runs) << all_states;
  }
}

// A stand-in game enumerated in key order, tier by tier: states 0..n-1, a state s moving to
// 2s + 1 and 3s + 2 (when below n). Its tiers either cover consecutive key ranges (their runs are
// joined as stored) or interleave (by parity: merged); the search is the same either way.
class KeyOrderGame final : public Game {
 public:
  KeyOrderGame(std::uint64_t n, bool interleaved) : n_(n), interleaved_(interleaved) {}
  std::string name() const override { return "key-order"; }
  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    for (StateKey s = 0; s < n_; ++s)
      if (tier_of(s) == tier) emit(s);
  }
  bool enumerates_in_key_order() const override { return true; }
  std::vector<Tier> tiers() const override { return {Tier{"a", {}}, Tier{"b", {}}, Tier{"c", {}}}; }
  std::string tier_of(StateKey s) const override {
    const std::uint64_t part = interleaved_ ? s % 3 : s * 3 / n_;
    return std::string(1, static_cast<char>('a' + part));
  }
  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    for (StateKey c : {2 * s + 1, 3 * s + 2})
      if (c < n_) out.push_back(Child::state(c));
  }
  StateKey start() const override { return 0; }
  std::string render(StateKey s) const override { return std::to_string(s) + "\n"; }

 private:
  std::uint64_t n_;
  bool interleaved_;
};

TEST(Bfs, AllStatesJoinsTiersInKeyOrderOrMergesThem) {
  testing::ScratchDir dir;
  std::vector<BfsResult> results;
  for (bool interleaved : {false, true}) {
    KeyOrderGame g(300'000, interleaved);
    BfsOptions o;
    o.memory_bytes = 200ull << 20;
    o.block_bytes = 4096;
    o.all_states = true;
    o.job_dir = dir / (interleaved ? "merged" : "joined");
    results.push_back(breadth_first(g, o));
    EXPECT_EQ(results.back().enumerated, 300'000u);
    EXPECT_EQ(inspect_run(results.back().unreached_path).record_count, results.back().unreached);
    o.all_states = false;
    o.job_dir = dir / (interleaved ? "visited-merged" : "visited-joined");
    const BfsResult visited = breadth_first(g, o);
    EXPECT_EQ(results.back().new_states, visited.new_states);
    EXPECT_EQ(results.back().unreached, 300'000u - visited.states);
  }
  EXPECT_EQ(results[0].new_states, results[1].new_states);
  EXPECT_GT(results[0].unreached, 0u);
}

// Stopped right after a stage (as a kill at that moment would leave it), the search over all
// states resumes from its work directory to the same result.
TEST(Bfs, AllStatesResumesAfterAStageToTheSameLevels) {
  testing::ScratchDir dir;
  const std::string board = testing::release_else_sanitized("3x4:p3", "3x3:p3");
  auto run = [&](const std::string& work, int* code = nullptr) {
    auto r =
        testing::run_command(std::string(ZERMELO_CLI) + " --quiet --json --memory 96M --work-dir " +
                             work + " bfs ostle-mini " + board + " --all-states 2>/dev/null");
    if (code) *code = r.code;
    if (r.code != 0) return nlohmann::json();
    nlohmann::json j = nlohmann::json::parse(r.out);
    // Work statistics, which depend on where the search resumed (BfsResult): not compared.
    j.erase("resumed"), j.erase("unreached_run"), j.erase("filtered"), j.erase("keyless");
    return j;
  };
  const nlohmann::json reference = run(dir / "ref");
  ASSERT_FALSE(reference.is_null());
  for (std::string stage : {"states", "ply-0", "ply-5", "done"}) {
    int code = 0;
    setenv("ZERMELO_FAULT_AFTER_STAGE", stage.c_str(), 1);
    run(dir / stage, &code);
    unsetenv("ZERMELO_FAULT_AFTER_STAGE");
    EXPECT_EQ(code, 77) << "the fault was not injected after " << stage;
    EXPECT_EQ(run(dir / stage), reference) << "stopped after " << stage;
  }
}

// The keys of a sorted run, in order.
std::vector<StateKey> keys_in_run(const std::string& path) {
  std::vector<StateKey> keys;
  RunReader run(path);
  for (StateKey k; run.next(k);) keys.push_back(k);
  return keys;
}

// Sharded (docs/shards.md), the search over all states finds the plies, edges and terminal
// states of the search over the visited run, and leaves the unsharded search's unreached and
// deepest states, key for key, whatever the number of shards; Ostle both ways (decided states
// expanded or not). Small blocks: untouched blocks are copied in every shard.
TEST(Bfs, AllStatesShardedGivesTheUnshardedPlies) {
  testing::ScratchDir dir;
  struct ShardedCase {
    const char* game;
    std::string board;
    bool expand_decided;
  };
  const std::vector<ShardedCase> cases = {{"tictactoe", "", false},
                                          {"nim", "3x4", false},
                                          {"onitama", "3x3", false},
                                          {"ostle-mini", "3x3:p2", false},
                                          {"ostle-mini", "3x3:p2", true}};
  for (const ShardedCase& c : cases) {
    const std::string name = std::string(c.game) + "-" + c.board + (c.expand_decided ? "-e" : "");
    auto g = make_game(
        c.game, c.board.empty() ? std::vector<std::string>{} : std::vector<std::string>{c.board});
    BfsOptions o;
    o.memory_bytes = 288ull << 20;  // 7 shards need 266 MiB on 2 threads (memory_floor)
    o.expand_decided = c.expand_decided;
    o.job_dir = dir / (name + "-visited");
    const BfsResult visited = breadth_first(*g, o);
    o.all_states = true;
    o.block_bytes = 4096;
    o.job_dir = dir / (name + "-whole");
    const BfsResult whole = breadth_first(*g, o);
    for (unsigned p : {1u, 2u, 3u, 7u}) {
      const std::string tag = name + " with " + std::to_string(p) + " shards";
      o.shards = p;
      o.job_dir = dir / (name + "-" + std::to_string(p));
      const BfsResult sharded = breadth_first(*g, o);
      expect_same_plies_and_edges(sharded, visited, tag);
      EXPECT_EQ(sharded.unreached, whole.unreached) << tag;
      EXPECT_EQ(sharded.deepest, whole.deepest) << tag;
      EXPECT_EQ(keys_in_run(sharded.unreached_path), keys_in_run(whole.unreached_path)) << tag;
      EXPECT_EQ(std::filesystem::exists(o.job_dir + "/shard-0"), false) << tag << ": left behind";
      if (p != 3) continue;
      const BfsResult again = breadth_first(*g, o);  // read back, not redone
      EXPECT_TRUE(again.resumed) << tag;
      EXPECT_EQ(again.new_states, visited.new_states) << tag;
      EXPECT_EQ(again.unreached, whole.unreached) << tag;
    }
    o.shards = 1;
  }
}

// Sharded, every ply's states are kept joined: the same runs as the unsharded search's.
TEST(Bfs, AllStatesShardedKeepsEveryPlysStates) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", {"3x3:p2"});
  BfsOptions o;
  o.memory_bytes = 200ull << 20;
  o.all_states = true, o.keep_plies = true, o.block_bytes = 4096;
  o.job_dir = dir / "whole";
  const BfsResult whole = breadth_first(*g, o);
  o.shards = 3;
  o.job_dir = dir / "three";
  const BfsResult sharded = breadth_first(*g, o);
  ASSERT_EQ(sharded.ply_runs.size(), whole.ply_runs.size());
  ASSERT_GT(whole.ply_runs.size(), 3u);
  for (std::size_t p = 0; p < whole.ply_runs.size(); ++p)
    EXPECT_EQ(keys_in_run(sharded.ply_runs[p]), keys_in_run(whole.ply_runs[p])) << "ply " << p;
}

// Sharded and stopped right after a stage (as a kill at that moment would leave it), the search
// resumes from its work directory to the unsharded search's result.
TEST(Bfs, AllStatesShardedResumesAfterAStageToTheSameLevels) {
  testing::ScratchDir dir;
  const std::string board = "3x3:p3";  // the smallest with a ply 4: it is resumed 4 times
  auto search = [&](const std::string& work, const std::string& shards, int* code = nullptr) {
    auto r = testing::run_command(
        std::string(ZERMELO_CLI) + " --quiet --json --memory 192M --threads 2 --work-dir " + work +
        " bfs ostle-mini " + board + " --all-states" + shards + " 2>/dev/null");
    if (code) *code = r.code;
    if (r.code != 0) return nlohmann::json();
    nlohmann::json j = nlohmann::json::parse(r.out);
    // Work statistics, which depend on where the search resumed and on the shards: not compared.
    j.erase("resumed"), j.erase("unreached_run"), j.erase("filtered"), j.erase("keyless");
    j.erase("filter_bits_per_group");
    return j;
  };
  const nlohmann::json unsharded = search(dir / "ref", "");
  ASSERT_FALSE(unsharded.is_null());
  for (std::string stage : {"shards", "ply-0", "ply-4", "done"}) {
    int code = 0;
    setenv("ZERMELO_FAULT_AFTER_STAGE", stage.c_str(), 1);
    search(dir / stage, " --shards 3", &code);
    unsetenv("ZERMELO_FAULT_AFTER_STAGE");
    EXPECT_EQ(code, 77) << "the fault was not injected after " << stage;
    EXPECT_EQ(search(dir / stage, " --shards 3"), unsharded) << "stopped after " << stage;
  }
}

}  // namespace
}  // namespace zermelo
