// `zermelo export`: every state of a solved work dir once, in key order within each tier, with the
// value the probe API reads for it (CSV and JSON Lines give the same rows); tiers of a tiered
// solve are named; a tier that is not solved is an error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/test_util.hpp"
#include "zermelo/probe.hpp"

namespace {

struct Row {
  std::uint64_t key;
  std::string tier, result;
  std::uint32_t plies;
  friend bool operator==(const Row&, const Row&) = default;
};

using zermelo::testing::run_cli;

std::vector<Row> csv_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "key,tier,result,plies");
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row r;
    std::istringstream fields(line);
    std::string key, plies;
    std::getline(fields, key, ','), std::getline(fields, r.tier, ',');
    std::getline(fields, r.result, ','), std::getline(fields, plies);
    r.key = std::stoull(key), r.plies = static_cast<std::uint32_t>(std::stoul(plies));
    rows.push_back(r);
  }
  return rows;
}

std::vector<Row> jsonl_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    rows.push_back(Row{j["key"], j["tier"], j["result"], j["plies"]});
  }
  return rows;
}

std::string probe_text(const Row& r) {
  return r.result == "draw" ? r.result : r.result + " in " + std::to_string(r.plies);
}

TEST(CliExport, EveryTicTacToeStateOnceWithItsValueInCsvAndJsonLines) {
  zermelo::testing::ScratchDir dir;
  const std::string work = zermelo::testing::solved_work_dir(dir, "ttt", "tictactoe");
  const auto csv = run_cli("--work-dir " + work + " export");
  ASSERT_EQ(csv.code, 0) << csv.out;
  const auto rows = csv_rows(csv.out);
  ASSERT_EQ(rows.size(), 5478u);  // the legal positions
  zermelo::probe::Database db(work);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].tier, "all");
    if (i > 0) {
      EXPECT_LT(rows[i - 1].key, rows[i].key);
    }
    EXPECT_EQ(probe_text(rows[i]), db.value(rows[i].key).text()) << rows[i].key;
  }
  const auto jsonl = run_cli("--work-dir " + work + " export --format jsonl");
  ASSERT_EQ(jsonl.code, 0) << jsonl.out;
  EXPECT_EQ(jsonl_rows(jsonl.out), rows);
}

TEST(CliExport, TiersAreNamedAndOneTierAlone) {
  zermelo::testing::ScratchDir dir;
  const std::string work = zermelo::testing::solved_work_dir(dir, "nim", "nim 3x2 tiered --in-ram");
  const auto all = run_cli("--work-dir " + work + " export");
  ASSERT_EQ(all.code, 0) << all.out;
  const auto rows = csv_rows(all.out);
  EXPECT_EQ(rows.size(), 27u);  // 3 heaps of 0..2 sticks
  std::set<std::string> tiers;
  for (const auto& r : rows) tiers.insert(r.tier);
  EXPECT_EQ(tiers.size(), 7u);  // 0..6 sticks in all
  const auto one = run_cli("--work-dir " + work + " export --tier " + rows.back().tier);
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_EQ(csv_rows(one.out), std::vector<Row>{rows.back()});  // the 6-stick tier: one state
  EXPECT_NE(run_cli("--work-dir " + work + " export --tier nowhere 2>&1").code, 0);
}

}  // namespace
