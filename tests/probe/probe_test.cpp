// The probe API (C++ and C) on Nim 3x5 solved in tiers by the CLI (in RAM, which is faster and
// writes the same work dir): every value against Bouton's closed form (lost iff the heaps' XOR is
// 0), from several threads at once; best moves and lines against the same rule; errors as
// exceptions and codes with messages.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <thread>

#include "tests/test_util.hpp"
#include "zermelo/probe.h"
#include "zermelo/probe.hpp"

namespace {

using zermelo::probe::Database;
using zermelo::probe::Outcome;
constexpr std::uint64_t kStates = 6 * 6 * 6;  // 3 heaps of 0..5 sticks, base-6 digits

std::uint64_t nim_sum(std::uint64_t key) { return (key % 6) ^ (key / 6 % 6) ^ (key / 36); }

std::string solved_nim(const zermelo::testing::ScratchDir& dir) {
  const std::string work = dir / "nim";
  auto r = zermelo::testing::run_command(std::string(ZERMELO_CLI) + " --quiet --work-dir " + work +
                                         " solve nim 3x5 tiered --in-ram 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  return work;
}

std::vector<std::string> every_answer(const Database& db) {
  std::vector<std::string> out;
  for (std::uint64_t k = 0; k < kStates; ++k) {
    std::string s = db.value(k).text();
    for (auto& m : db.moves(k)) s += " " + m.name + "=" + m.value.text();
    out.push_back(s);
  }
  return out;
}

TEST(Probe, NimValuesAreBoutonsInEveryTierFromSeveralThreadsAtOnce) {
  zermelo::testing::ScratchDir dir;
  Database db(solved_nim(dir));
  EXPECT_EQ(db.game(), "nim");
  EXPECT_EQ(db.options(), (std::vector<std::string>{"3x5", "tiered"}));
  EXPECT_EQ(db.tiers().size(), 16u);
  for (std::uint64_t k = 0; k < kStates; ++k)
    EXPECT_EQ(db.value(k).outcome, nim_sum(k) == 0 ? Outcome::kLoss : Outcome::kWin) << k;
  EXPECT_EQ(db.value("start"), db.value(kStates - 1));

  const auto alone = every_answer(db);
  std::vector<std::vector<std::string>> seen(4);
  std::vector<std::thread> threads;
  for (auto& s : seen) threads.emplace_back([&db, &s] { s = every_answer(db); });
  for (auto& t : threads) t.join();
  for (auto& s : seen) EXPECT_EQ(s, alone);
}

// close() while threads probe: each probe under way ends with its right answer, every later one
// throws kClosed, and nothing crashes (the files are released by the last probe).
TEST(Probe, CloseWhileOtherThreadsProbe) {
  zermelo::testing::ScratchDir dir;
  Database db(solved_nim(dir));
  std::atomic<int> closed{0}, wrong{0};
  std::atomic<std::uint64_t> probes{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      try {
        for (std::uint64_t k = 0;; k = (k + 1) % kStates, ++probes)  // a move per stick
          if (db.moves(k).size() != k % 6 + k / 6 % 6 + k / 36) ++wrong;
      } catch (const zermelo::probe::Error& e) {
        if (e.code() == zermelo::probe::ErrorCode::kClosed) ++closed;
      }
    });
  while (probes < 1000) std::this_thread::yield();
  db.close();
  for (auto& t : threads) t.join();
  EXPECT_EQ(closed, 3);
  EXPECT_EQ(wrong, 0);
}

TEST(Probe, BestMovesAndLinesFollowTheClosedForm) {
  zermelo::testing::ScratchDir dir;
  Database db(solved_nim(dir));
  for (std::uint64_t k = 1; k < kStates; ++k) {
    auto best = db.best_move(k);
    ASSERT_TRUE(best.has_value()) << k;
    if (nim_sum(k) != 0) {
      EXPECT_EQ(nim_sum(best->key), 0u) << k;  // the winner restores XOR 0
    }
    const auto line = db.line(k);
    EXPECT_EQ(line.size(), db.value(k).plies + 1) << k;
    EXPECT_EQ(line.back().key, 0u) << k;  // perfect play empties the heaps
    EXPECT_EQ(line.front().move, best->name) << k;
  }
  EXPECT_FALSE(db.best_move(0).has_value());  // no stick left: no move
}

// Every tier's values run, read whole through the database, holds every state once with Bouton's
// value; a run replaced after the database was opened is refused, not read.
TEST(Probe, ValuesRunsHoldEveryStateAndAReplacedRunIsRefused) {
  zermelo::testing::ScratchDir dir;
  const std::string work = solved_nim(dir);
  Database db(work);
  std::set<std::uint64_t> seen;
  std::vector<std::uint64_t> keys;
  std::vector<std::uint16_t> raw;
  for (const auto& tier : db.tiers()) {
    zermelo::probe::ValuesRun run(db, tier);
    for (std::size_t b = 0; b < run.blocks(); ++b) {
      run.read_block(b, keys, raw);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_TRUE(seen.insert(keys[i]).second) << keys[i];
        EXPECT_EQ(zermelo::probe::ValuesRun::decode(raw[i]), db.value(keys[i])) << keys[i];
      }
    }
  }
  EXPECT_EQ(seen.size(), kStates);
  std::filesystem::copy_file(work + "/s2/values-s2.run", work + "/s1/values-s1.run",
                             std::filesystem::copy_options::overwrite_existing);
  try {
    zermelo::probe::ValuesRun run(db, "s1");
    ADD_FAILURE() << "a replaced values run was opened";
  } catch (const zermelo::probe::Error& e) {
    EXPECT_EQ(e.code(), zermelo::probe::ErrorCode::kOpen);
    EXPECT_NE(std::string(e.what()).find("replaced"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Database{work}, zermelo::probe::Error);  // and so is the database, opened again
}

TEST(Probe, ErrorsAreExceptionsWithCodesAndMessages) {
  zermelo::testing::ScratchDir dir;
  using zermelo::probe::ErrorCode;
  auto code_of = [](auto&& fn) {
    try {
      fn();
    } catch (const zermelo::probe::Error& e) {
      EXPECT_NE(std::string(e.what()), "");
      return e.code();
    }
    return ErrorCode{};
  };
  EXPECT_EQ(code_of([&] { Database(dir / "none"); }), ErrorCode::kOpen);
  Database db(solved_nim(dir));
  EXPECT_EQ(code_of([&] { db.value("1-2-3"); }), ErrorCode::kBadState);  // Nim reads no text
  EXPECT_EQ(code_of([&] { db.value(kStates); }), ErrorCode::kNoValue);
  db.close();
  EXPECT_EQ(code_of([&] { db.value(0); }), ErrorCode::kClosed);
}

TEST(Probe, TheCApiGivesTheSameAnswersAndErrorCodes) {
  zermelo::testing::ScratchDir dir;
  const std::string work = solved_nim(dir);
  zermelo_db* db = nullptr;
  EXPECT_EQ(zermelo_open((dir / "none").c_str(), &db), ZERMELO_ERR_OPEN);
  EXPECT_NE(std::string(zermelo_last_error()).find("no solved game"), std::string::npos);
  ASSERT_EQ(zermelo_open(work.c_str(), &db), ZERMELO_OK) << zermelo_last_error();
  char game[32];
  ASSERT_EQ(zermelo_game(db, game, sizeof game), ZERMELO_OK);
  EXPECT_STREQ(game, "nim 3x5 tiered");
  EXPECT_EQ(zermelo_game(db, game, 5), ZERMELO_ERR_TOO_SMALL);

  zermelo_value v;
  ASSERT_EQ(zermelo_value_of(db, "start", &v), ZERMELO_OK);
  const auto want = Database(work).value("start");
  EXPECT_EQ(v.outcome, ZERMELO_WIN);
  EXPECT_EQ(v.plies, want.plies);
  EXPECT_EQ(zermelo_value_of(db, "heaps", &v), ZERMELO_ERR_BAD_STATE);
  EXPECT_EQ(zermelo_value_of_key(db, kStates, &v), ZERMELO_ERR_NO_VALUE);

  zermelo_move moves[15];
  std::size_t count = 0;
  EXPECT_EQ(zermelo_moves(db, kStates - 1, moves, 3, &count), ZERMELO_ERR_TOO_SMALL);
  EXPECT_EQ(count, 15u);  // 5 + 5 + 5 ways to take sticks
  ASSERT_EQ(zermelo_moves(db, kStates - 1, moves, 15, &count), ZERMELO_OK);
  EXPECT_EQ(zermelo_moves(db, kStates - 1, nullptr, 15, nullptr), ZERMELO_ERR_ARGUMENT);
  zermelo_close(db);
}

}  // namespace
