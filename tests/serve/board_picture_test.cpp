// Every game with a drawing of its own gets it, not the monospace fallback: the pictures are read
// from the games' diagrams, so a diagram that changes its layout must fail here, not in a page.
#include <gtest/gtest.h>

#include <random>

#include "tests/test_util.hpp"
#include "zermelo/serve/board_picture.hpp"

namespace zermelo {
namespace {

using testing::count_occurrences;

// The start and a few random descendants: each a drawn board with `pieces` pieces at the start.
void expect_drawn(const std::string& name, const std::vector<std::string>& options,
                  std::size_t squares, std::size_t pieces, const std::string& piece) {
  SCOPED_TRACE(name);
  auto g = make_game(name, options);
  StateKey s = g->start();
  const std::string svg = board_svg(*g, s);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u) << svg;
  EXPECT_EQ(count_occurrences(svg, "font-family=\"monospace\""), 0u)
      << "the fallback drew " << name;
  EXPECT_GE(count_occurrences(svg, "<rect"), squares + 1) << svg;
  EXPECT_EQ(count_occurrences(svg, piece), pieces) << svg;
  std::mt19937_64 rng(7);
  std::vector<Child> kids;
  for (int i = 0; i < 8; ++i) {
    g->successors(s, kids);
    std::erase_if(kids, [](const Child& c) { return c.is_terminal(); });
    if (kids.empty()) break;
    s = kids[rng() % kids.size()].key;
    EXPECT_EQ(count_occurrences(board_svg(*g, s), "font-family=\"monospace\""), 0u) << g->render(s);
  }
}

TEST(BoardPicture, EveryGameIsDrawn) {
  expect_drawn("tictactoe", {}, 9, 0, "<circle");
  expect_drawn("nim", {"3x4"}, 0, 12, "rx=\"3\"");    // a stick each
  expect_drawn("onitama", {"3x3"}, 9, 8, "<circle");  // 4 students, 2 masters with a ring
  expect_drawn("ostle-mini", {"3x3:p2"}, 9, 4, "<circle");
  expect_drawn("breakthrough", {"3x4"}, 12, 12, "<circle");
  expect_drawn("ostle", {}, 25, 10, "<circle");
}

TEST(BoardPicture, SideToMoveAsTheDiagramSaysIt) {
  EXPECT_EQ(side_to_move("...\n...\n...\nX to move\n"), "X");
  EXPECT_EQ(side_to_move("Onitama 3x3, Red to move\n"), "Red");
  EXPECT_EQ(side_to_move("heap 0: |||\n"), "");
  EXPECT_EQ(
      side_to_move(
          make_game("breakthrough", {"3x4"})->render(make_game("breakthrough", {"3x4"})->start())),
      "P1 (X)");
}

TEST(BoardPicture, TextIsEscaped) {
  // A diagram's characters reach the SVG as text, never as markup.
  class Odd final : public Game {
   public:
    std::string name() const override { return "odd"; }
    void enumerate(const std::string&, const std::function<void(StateKey)>&) const override {}
    void successors(StateKey, std::vector<Child>& out) const override { out.clear(); }
    StateKey start() const override { return 0; }
    std::string render(StateKey) const override { return "<script>&\"\n"; }
  } odd;
  const std::string svg = board_svg(odd, 0);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;&amp;&quot;"), std::string::npos);
}

}  // namespace
}  // namespace zermelo
