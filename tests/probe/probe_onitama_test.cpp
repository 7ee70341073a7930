// The probe API on Onitama 3x3 (boar cards) solved out of core by the CLI, against the in-RAM
// solver's values of the same game (a separate implementation of the definition) and against
// `zermelo query`: every state's value, every move's value and name, best moves and perfect lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "tests/json_value.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/probe.hpp"

namespace zermelo {
namespace {

using probe::Outcome;

probe::Value expected(const std::vector<KeyValue>& ram, StateKey key) {
  auto it = std::lower_bound(ram.begin(), ram.end(), key,
                             [](const KeyValue& kv, StateKey k) { return kv.key < k; });
  EXPECT_TRUE(it != ram.end() && it->key == key) << key;
  return probe::ValuesRun::decode(it == ram.end() || it->key != key ? 0 : it->value);
}

std::string text(const probe::Value& v) { return v.text(); }
std::string text(const nlohmann::json& v) { return testing::value_text(v); }

// Onitama 3x3 solved out of core by the CLI into `work`; the in-RAM solver's values of the same
// game, sorted by key.
std::vector<KeyValue> solve_both_ways(const testing::ScratchDir& dir, const std::string& work) {
  auto r = testing::run_command(std::string(ZERMELO_CLI) + " --quiet --work-dir " + work +
                                " solve onitama 3x3 boar 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  auto game = make_game("onitama", {"3x3", "boar"});
  SolveOptions o;
  o.job_dir = dir / "ram", o.in_ram = true, o.memory_bytes = 64ull << 20;
  std::vector<KeyValue> ram;
  for (auto& t : solve_tiers(*game, o, "all")) {
    auto values = load_values(t.values_path);
    ram.insert(ram.end(), values.begin(), values.end());
  }
  std::sort(ram.begin(), ram.end(),
            [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  return ram;
}

// The start's value and moves (names and values) as `zermelo query --json start` gives them.
void expect_the_start_as_query_gives_it(const probe::Database& db, const std::string& work) {
  auto r = testing::run_command(std::string(ZERMELO_CLI) + " --quiet --json --work-dir " + work +
                                " query start");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto query = nlohmann::json::parse(r.out);
  EXPECT_EQ(db.key("start"), query["key"].get<std::uint64_t>());
  EXPECT_EQ(text(db.value("start")), text(query["value"]));
  const auto moves = db.moves("start");
  ASSERT_EQ(moves.size(), query["moves"].size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    EXPECT_EQ(moves[i].name, query["moves"][i]["move"]);
    EXPECT_EQ(text(moves[i].value), text(query["moves"][i]["value"]));
  }
}

// One test, so that the game is solved once (ctest runs every test in a process of its own).
TEST(ProbeOnitama, EveryValueAndMoveIsTheInRamSolversAndTheCliQuerysAndLinesFollowThem) {
  testing::ScratchDir dir;
  const std::string work = dir / "work";
  const std::vector<KeyValue> ram = solve_both_ways(dir, work);
  probe::Database db(work);
  expect_the_start_as_query_gives_it(db, work);
  EXPECT_EQ(db.game(), "onitama");
  EXPECT_EQ(db.options(), (std::vector<std::string>{"3x3", "boar"}));
  ASSERT_GT(ram.size(), 1000u);
  std::uint64_t wins = 0;
  for (const KeyValue& kv : ram) {
    const probe::Value v = db.value(kv.key);
    ASSERT_EQ(v, probe::ValuesRun::decode(kv.value)) << kv.key;
    const auto moves = db.moves(kv.key);
    for (const auto& m : moves)
      if (!m.ends_game) {
        // for the player who moves: a child won in k plies is a move lost in k + 1
        const probe::Value child = expected(ram, m.key);
        const Outcome flipped = child.outcome == Outcome::kWin    ? Outcome::kLoss
                                : child.outcome == Outcome::kLoss ? Outcome::kWin
                                                                  : child.outcome;
        EXPECT_EQ(m.value, (probe::Value{flipped, flipped == Outcome::kDraw ? 0 : child.plies + 1}))
            << kv.key << " " << m.name;
      }
    const auto best = db.best_move(kv.key);
    ASSERT_EQ(best.has_value(), !moves.empty()) << kv.key;
    if (best) {
      EXPECT_EQ(best->value, v) << kv.key;  // the perfect player keeps the value
    }
    if (v.outcome != Outcome::kWin || wins++ % 16 != 0) continue;
    // A won state's line: the values count down to the end of the game, every state's as stored.
    const auto line = db.line(kv.key);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.front().move, best->name);
    for (std::size_t i = 0; i < line.size(); ++i) {
      EXPECT_EQ(line[i].value, expected(ram, line[i].key)) << kv.key << " step " << i;
      EXPECT_EQ(line[i].value.plies, v.plies - i) << kv.key << " step " << i;
    }
  }
  EXPECT_GT(wins, 0u);
  // Keys that are no state (Onitama cannot even decode them) are errors, never crashes.
  for (const std::uint64_t bad : {std::uint64_t{99999999999}, ~std::uint64_t{0}}) {
    for (auto probe_of : std::vector<std::function<void()>>{
             [&] { db.value(bad); }, [&] { db.moves(bad); }, [&] { db.best_move(bad); },
             [&] { db.line(bad); }, [&] { db.render(bad); }}) {
      try {
        probe_of();
        ADD_FAILURE() << bad << " was answered";
      } catch (const probe::Error& e) {
        EXPECT_EQ(e.code(), probe::ErrorCode::kNoValue) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace zermelo
