// `zermelo decode`: a key back to the state and value `query` shows for it, the game from the
// work dir's manifest; what is not a key, or no state of the solved game, is an error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/json_value.hpp"
#include "tests/test_util.hpp"

namespace {

using zermelo::testing::run_cli;

TEST(CliDecode, AKeyIsTheStateQueryShowsForIt) {
  zermelo::testing::ScratchDir dir;
  const std::string work = zermelo::testing::solved_work_dir(dir, "ttt", "tictactoe");
  const auto query = run_cli("--json --work-dir " + work + " query X../O../...");
  ASSERT_EQ(query.code, 0) << query.out;
  const auto q = nlohmann::json::parse(query.out);
  const std::string key = std::to_string(q["key"].get<std::uint64_t>());

  const auto decoded = run_cli("--json --work-dir " + work + " decode " + key);
  ASSERT_EQ(decoded.code, 0) << decoded.out;
  const auto d = nlohmann::json::parse(decoded.out);
  EXPECT_EQ(d["state"], q["state"]);
  EXPECT_EQ(d["game"], "tictactoe");
  EXPECT_EQ(d["tier"], "all");
  EXPECT_EQ(d["value"], q["value"]);
  const auto named = run_cli("--work-dir " + work + " decode tictactoe " + key);
  ASSERT_EQ(named.code, 0) << named.out;
  EXPECT_EQ(named.out, "key " + key + ", tier all, " + zermelo::testing::value_text(q["value"]) +
                           " for the player to move\n" + q["state"].get<std::string>());

  EXPECT_NE(run_cli("--work-dir " + work + " decode X../O../... 2>&1").code, 0);
  // not its game
  EXPECT_NE(run_cli("--work-dir " + work + " decode nim " + key + " 2>&1").code, 0);
  const auto none = run_cli("--work-dir " + work + " decode 19682 2>&1");  // a board full of O
  EXPECT_NE(none.code, 0);
  EXPECT_NE(none.out.find("no state"), std::string::npos) << none.out;
}

}  // namespace
