// Breakthrough's text form (for `query` and the explorer's state box): the diagram's rows, top
// first, and who moves. Positions along random games read back to their keys; malformed text is
// refused with a reason.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

// "OOO/OOO/.../XXX X" from the diagram: rows "4  OOO" top first, then "P1 (X) to move".
std::string text_of(const std::string& diagram) {
  std::istringstream in(diagram);
  std::string line, rows, side;
  while (std::getline(in, line)) {
    if (line.find("to move") != std::string::npos)
      side = line.find("(X)") != std::string::npos ? "X" : "O";
    else if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])))
      rows += (rows.empty() ? "" : "/") + line.substr(line.find_last_of(' ') + 1);
  }
  return rows + " " + side;
}

TEST(BreakthroughText, PositionsReadBack) {
  for (const char* board : {"3x4", "4x5"}) {
    auto g = make_game("breakthrough", {board});
    std::mt19937_64 rng(3);
    std::vector<Child> kids;
    for (int game = 0; game < 20; ++game) {
      StateKey s = g->start();
      for (int ply = 0; ply < 30; ++ply) {
        const std::string text = text_of(g->render(s));
        std::string error;
        ASSERT_EQ(g->parse(text, &error), std::optional<StateKey>(s)) << text << ": " << error;
        g->successors(s, kids);
        if (kids.empty()) break;
        s = kids[rng() % kids.size()].key;
      }
    }
  }
}

TEST(BreakthroughText, MalformedTextIsRefusedWithAReason) {
  auto g = make_game("breakthrough", {"3x4"});
  for (const char* bad :
       {"", "OOO/OOO/XXX/XXX", "OOO/OOO/XXX/XXX P", "OOO/OOO/XXX X", "OOO/OOO/.../XXX/XXX X",
        "OOOO/OOO/XXX/XXX X", "OO/OOO/XXX/XXX X", "OOO/O.a/XXX/XXX X", "OOO//XXX/XXX X"}) {
    std::string error;
    EXPECT_FALSE(g->parse(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  EXPECT_EQ(g->parse("OOO/OOO/XXX/XXX X", nullptr), std::optional<StateKey>(g->start()));
}

}  // namespace
}  // namespace zermelo
