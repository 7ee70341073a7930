// A game module's own commands name the board as `solve` does (`onitama count 3x4 boar`,
// `breakthrough solve 3x4`, `nim solve 3x5`), the older flags give the same answer, and a board
// named twice, named by neither, or with a word too many is an error that says so.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"

namespace {

using zermelo::testing::run_cli;

nlohmann::json json_of(const std::string& args) {
  const auto r = run_cli("--quiet --json " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

void expect_error(const std::string& args, const std::string& says) {
  const auto r = run_cli("--quiet " + args + " 2>&1");
  EXPECT_NE(r.code, 0) << args;
  EXPECT_NE(r.out.find(says), std::string::npos) << args << "\n" << r.out;
}

TEST(CliGameOptionWords, OnitamaTakesSolvesWords) {
  const auto words = json_of("onitama count 3x3 boar");
  const auto flags = json_of("onitama count --board 3x3 --cards boar");
  for (const char* field : {"board", "cards", "states", "edges", "terminal", "depth"})
    EXPECT_EQ(words[field], flags[field]) << field;
  EXPECT_EQ(words["states"], 59666);  // as tests/onitama/onitama_graph_test.cpp counts it
  const auto folded = json_of("onitama tiers 3x3 boar symmetry");
  EXPECT_EQ(folded["symmetry"], true);
  EXPECT_EQ(folded["legal_states"],
            json_of("onitama tiers --board 3x3 --symmetry")["legal_states"]);
  EXPECT_NE(folded["legal_states"], json_of("onitama tiers 3x3")["legal_states"]);
  expect_error("onitama count", "name the board");
  expect_error("onitama count 3x3 --board 3x3", "named twice");
  expect_error("onitama count 3x3 boar bogus", "not 'bogus'");
}

TEST(CliGameOptionWords, SetGamesTakeSolvesWords) {
  const auto bt = json_of("breakthrough solve 3x4");
  EXPECT_EQ(bt["winner"], json_of("breakthrough solve --board 3x4")["winner"]);
  expect_error("breakthrough solve", "name the board");
  expect_error("breakthrough solve 3x4 --board 3x5", "named twice");
  expect_error("breakthrough solve 3x4 4x4", "not '4x4'");

  const auto nim = json_of("nim solve 3x5");
  EXPECT_EQ(nim["winner"], json_of("nim solve --heaps 3 --sticks 5")["winner"]);
  EXPECT_NE(nim["winner"], json_of("nim solve 2x5")["winner"]);  // equal heaps: the second wins
  expect_error("nim solve", "name the heaps");
  expect_error("nim solve 3x5 --heaps 2", "named twice");
  expect_error("nim solve 3by5", "HEAPSxSTICKS");
}

}  // namespace
