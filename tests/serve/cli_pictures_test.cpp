// Pictures from the command line (issue 23): `query --svg` draws the state, `solve --plot` the
// states by plies (a colour a tier), `bfs --plot` the new states per ply, each an SVG file whose
// bars are the numbers the command printed; `plot` draws the same from their saved JSON.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/test_util.hpp"
#include "zermelo/serve/svg_chart.hpp"

namespace zermelo {
namespace {

using testing::CommandResult;

CommandResult cli(const std::string& args) {
  return testing::run_command(std::string(ZERMELO_CLI) + " --quiet " + args + " 2>&1");
}
std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}
std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(CliPictures, SolveBfsAndQueryDrawWhatTheyPrint) {
  testing::ScratchDir dir;
  const std::string plies = dir / "plies.svg", levels = dir / "bfs.svg", board = dir / "b.svg";
  CommandResult solve =
      cli("--json --work-dir " + (dir / "w") + " solve tictactoe --in-ram --plot " + plies);
  ASSERT_EQ(solve.code, 0) << solve.out;
  const auto by_plies = nlohmann::json::parse(solve.out)["by_plies"];
  const std::string chart = file_text(plies);
  ASSERT_EQ(chart.rfind("<svg", 0), 0u) << chart.substr(0, 200);
  for (auto& [p, n] : by_plies.items())  // a bar a ply, its count in its tooltip
    EXPECT_EQ(count(chart, "tier all, " + p + ": " + std::to_string(n.get<int>()) + "<"), 1u)
        << p << " " << n;

  CommandResult bfs = cli("--json --work-dir " + (dir / "b") + " bfs tictactoe --plot " + levels);
  ASSERT_EQ(bfs.code, 0) << bfs.out;
  const auto new_states = nlohmann::json::parse(bfs.out)["new_states_per_ply"];
  EXPECT_EQ(count(file_text(levels), "<title>new states, "), new_states.size());

  // `plot` draws the same charts again from the saved JSON.
  std::ofstream(dir / "solve.json") << solve.out;
  std::ofstream(dir / "bfs.json") << bfs.out;
  ASSERT_EQ(cli("plot " + (dir / "solve.json")).code, 0);
  ASSERT_EQ(cli("plot " + (dir / "bfs.json") + " --out " + (dir / "again.svg")).code, 0);
  EXPECT_EQ(file_text(dir / "solve.svg"), chart);
  EXPECT_EQ(file_text(dir / "again.svg"), file_text(levels));
  EXPECT_NE(cli("plot " + board).code, 0);  // not JSON

  CommandResult q = cli("--work-dir " + (dir / "w") + " query X.O...... --svg " + board);
  ASSERT_EQ(q.code, 0) << q.out;
  EXPECT_EQ(count(file_text(board), "stroke-linecap=\"round\""), 1u);  // one X drawn
  EXPECT_NE(cli("--work-dir " + (dir / "w") + " query start --svg " + (dir / "no/such/b.svg")).code,
            0);
}

TEST(CliPictures, ChartAxes) {
  BarChart c;
  c.labels = {"0", "1", "2"};
  c.series = {{"a", {3, 0, 12345}}, {"b", {1, 2}}};
  const std::string linear = bar_chart_svg(c);
  EXPECT_EQ(count(linear, "<title>"), 4u);             // the zero is not drawn
  EXPECT_NE(linear.find(">15k<"), std::string::npos);  // a round top above 12,346
  c.logarithmic = true;
  const std::string log = bar_chart_svg(c);
  EXPECT_NE(log.find(">10k<"), std::string::npos);
  EXPECT_NE(log.find(">1<"), std::string::npos);
}

}  // namespace
}  // namespace zermelo
