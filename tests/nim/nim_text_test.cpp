// Nim's text form (for `query` and the explorer's state box) and move names: every position
// reads back from its heaps' sizes, every move is named after the heap and the sticks it takes,
// and malformed text is refused with a reason.
#include <gtest/gtest.h>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

TEST(NimText, EveryPositionReadsBackAndMovesSayWhatTheyTake) {
  auto g = make_game("nim", {"3x4"});
  std::vector<Child> kids;
  for (StateKey k = 0; k < 125; ++k) {
    const StateKey heaps[3] = {k % 5, k / 5 % 5, k / 25};
    const std::string text =
        std::to_string(heaps[0]) + "," + std::to_string(heaps[1]) + " " + std::to_string(heaps[2]);
    std::string error;
    ASSERT_EQ(g->parse(text, &error), std::optional<StateKey>(k)) << text << ": " << error;
    g->successors(k, kids);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const std::string name = g->move_name(k, i);  // "<heap from 1>:<taken>"
      ASSERT_EQ(name[1], ':') << name;
      const int heap = name[0] - '1', taken = std::stoi(name.substr(2));
      ASSERT_TRUE(heap >= 0 && heap < 3) << name;
      StateKey after[3] = {heaps[0], heaps[1], heaps[2]};
      after[heap] -= static_cast<StateKey>(taken);
      EXPECT_EQ(kids[i].key, after[0] + 5 * after[1] + 25 * after[2]) << k << " " << name;
    }
  }
}

TEST(NimText, MalformedTextIsRefusedWithAReason) {
  auto g = make_game("nim", {"3x4"});
  for (const char* bad :
       {"", "1,2", "1,2,3,4", "1,2,5", "1;2;3", "-1,2,3", "99999999999999999999"}) {
    std::string error;
    EXPECT_FALSE(g->parse(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

}  // namespace
}  // namespace zermelo
