// Pictures from the command line (issue 23): `query --svg` and `ostle show --svg` draw the state,
// `solve --plot` the states by plies (a colour a tier), `bfs --plot` the new states per ply, each
// an SVG file whose bars are the numbers the command printed; `plot` draws the same from their
// saved JSON; `--plot-scale` and `plot --scale` choose a linear or a log axis. (PNG:
// png_pictures_test.cpp.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/test_util.hpp"
#include "zermelo/serve/board_picture.hpp"
#include "zermelo/serve/svg_chart.hpp"

namespace zermelo {
namespace {

using testing::CommandResult;

using testing::run_cli_with_stderr;
std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}
using testing::count_occurrences;

TEST(CliPictures, SolveBfsAndQueryDrawWhatTheyPrint) {
  testing::ScratchDir dir;
  const std::string plies = dir / "plies.svg", levels = dir / "bfs.svg", board = dir / "b.svg";
  CommandResult solve = run_cli_with_stderr("--json --work-dir " + (dir / "w") +
                                            " solve tictactoe --in-ram --plot " + plies);
  ASSERT_EQ(solve.code, 0) << solve.out;
  const auto by_plies = nlohmann::json::parse(solve.out)["by_plies"];
  const std::string chart = file_text(plies);
  ASSERT_EQ(chart.rfind("<svg", 0), 0u) << chart.substr(0, 200);
  for (auto& [p, n] : by_plies.items())  // a bar a ply, its count in its tooltip
    EXPECT_EQ(
        count_occurrences(chart, "tier all, " + p + ": " + std::to_string(n.get<int>()) + "<"), 1u)
        << p << " " << n;

  CommandResult bfs =
      run_cli_with_stderr("--json --work-dir " + (dir / "b") + " bfs tictactoe --plot " + levels);
  ASSERT_EQ(bfs.code, 0) << bfs.out;
  const auto new_states = nlohmann::json::parse(bfs.out)["new_states_per_ply"];
  EXPECT_EQ(count_occurrences(file_text(levels), "<title>new states, "), new_states.size());

  // `plot` draws the same charts again from the saved JSON.
  std::ofstream(dir / "solve.json") << solve.out;
  std::ofstream(dir / "bfs.json") << bfs.out;
  ASSERT_EQ(run_cli_with_stderr("plot " + (dir / "solve.json")).code, 0);
  ASSERT_EQ(
      run_cli_with_stderr("plot " + (dir / "bfs.json") + " --out " + (dir / "again.svg")).code, 0);
  EXPECT_EQ(file_text(dir / "solve.svg"), chart);
  EXPECT_EQ(file_text(dir / "again.svg"), file_text(levels));
  EXPECT_NE(run_cli_with_stderr("plot " + board).code, 0);  // no such file yet
  // JSON of another shape: an error naming the file and what it should be.
  const CommandResult manifest = run_cli_with_stderr("plot " + (dir / "w") + "/manifest.json");
  EXPECT_NE(manifest.code, 0);
  EXPECT_NE(manifest.out.find("is not the output of `solve --json`"), std::string::npos)
      << manifest.out;

  CommandResult q =
      run_cli_with_stderr("--work-dir " + (dir / "w") + " query X.O...... --svg " + board);
  ASSERT_EQ(q.code, 0) << q.out;
  EXPECT_EQ(count_occurrences(file_text(board), "stroke-linecap=\"round\""), 1u);  // one X drawn
  EXPECT_NE(run_cli_with_stderr("--work-dir " + (dir / "w") + " query start --svg " +
                                (dir / "no/such/b.svg"))
                .code,
            0);
}

// The y axis as asked: states by plies linear unless --plot-scale log (then a tick a power of
// ten), a search's levels log unless --plot-scale linear.
TEST(CliPictures, ChartScales) {
  testing::ScratchDir dir;
  CommandResult solve =
      run_cli_with_stderr("--json --work-dir " + (dir / "w") + " solve tictactoe --in-ram " +
                          "--plot-scale log --plot " + (dir / "log.svg"));
  ASSERT_EQ(solve.code, 0) << solve.out;
  std::ofstream(dir / "solve.json") << solve.out;
  ASSERT_EQ(
      run_cli_with_stderr("plot " + (dir / "solve.json") + " --out " + (dir / "linear.svg")).code,
      0);
  ASSERT_EQ(run_cli_with_stderr("plot " + (dir / "solve.json") + " --scale log --out " +
                                (dir / "again.svg"))
                .code,
            0);
  const std::string log = file_text(dir / "log.svg"), linear = file_text(dir / "linear.svg");
  EXPECT_EQ(file_text(dir / "again.svg"), log);
  EXPECT_EQ(count_occurrences(log, ">states (log scale)</text>"), 1u);
  EXPECT_EQ(count_occurrences(linear, ">states</text>"), 1u);
  EXPECT_EQ(count_occurrences(linear, "log scale"), 0u);
  // Tic-tac-toe's largest count of a ply is in the thousands (plies 0 to 5): a tick a power of
  // ten up to 10k on a log axis; steps of 500 from 0 on the linear one, 0 not on the log one.
  for (const char* tick : {">10<", ">100<", ">1k<", ">10k<"})
    EXPECT_EQ(count_occurrences(log, tick), 1u) << tick;
  EXPECT_EQ(count_occurrences(log, ">1<"), 2u);  // 10^0, and the x axis's 1 ply
  EXPECT_EQ(count_occurrences(log, ">0<"), 1u);  // the x axis's 0 plies only
  EXPECT_EQ(count_occurrences(log, ">500<"), 0u);
  EXPECT_EQ(count_occurrences(linear, ">0<"), 2u);  // the x axis's 0 plies and the y axis's bottom
  EXPECT_EQ(count_occurrences(linear, ">500<"), 1u);
  EXPECT_EQ(count_occurrences(linear, ">10k<"), 0u);

  CommandResult bfs =
      run_cli_with_stderr("--work-dir " + (dir / "b") + " bfs tictactoe --plot-scale linear " +
                          "--plot " + (dir / "bfs.svg"));
  ASSERT_EQ(bfs.code, 0) << bfs.out;
  EXPECT_EQ(count_occurrences(file_text(dir / "bfs.svg"), ">new states</text>"),
            2u);  // y axis, legend
  EXPECT_EQ(count_occurrences(file_text(dir / "bfs.svg"), "log scale"), 0u);
  EXPECT_NE(
      run_cli_with_stderr("--work-dir " + (dir / "b2") + " bfs tictactoe --plot-scale log").code,
      0);
  EXPECT_NE(run_cli_with_stderr("plot " + (dir / "solve.json") + " --scale cubic").code, 0);
}

// `ostle show --svg` draws the picture serve and `query --svg` draw: board_svg of the state's key.
TEST(CliPictures, OstleShowDrawsTheState) {
  testing::ScratchDir dir;
  const std::string text = "11111-00300-00000-00000-22222:c2D";
  CommandResult show = run_cli_with_stderr("ostle show " + text + " --svg " + (dir / "s.svg"));
  ASSERT_EQ(show.code, 0) << show.out;
  EXPECT_NE(show.out.find("legal moves"), std::string::npos) << show.out;  // and prints as before
  auto g = make_game("ostle", {});
  std::string error;
  const auto key = g->parse(text, &error);
  ASSERT_TRUE(key) << error;
  const std::string svg = file_text(dir / "s.svg");
  EXPECT_EQ(svg, board_svg(*g, *key));
  EXPECT_EQ(count_occurrences(svg, "<circle"), 10u);      // five pieces a side
  EXPECT_NE(svg.find("forbidden: "), std::string::npos);  // the move, in the key's orientation
  EXPECT_NE(run_cli_with_stderr("ostle show start --svg " + (dir / "no/such/s.svg")).code, 0);
  EXPECT_NE(run_cli_with_stderr("ostle show 11111-00300 --svg " + (dir / "bad.svg")).code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.svg"));
}

TEST(CliPictures, ChartAxes) {
  BarChart c;
  c.labels = {"0", "1", "2"};
  c.series = {{"a", {3, 0, 12345}}, {"b", {1, 2}}};
  const std::string linear = bar_chart_svg(c);
  EXPECT_EQ(count_occurrences(linear, "<title>"), 4u);  // the zero is not drawn
  EXPECT_NE(linear.find(">15k<"), std::string::npos);   // a round top above 12,346
  c.logarithmic = true;
  const std::string log = bar_chart_svg(c);
  EXPECT_NE(log.find(">10k<"), std::string::npos);
  EXPECT_NE(log.find(">1<"), std::string::npos);
}

// Many bars (Ostle's 147 plies): an x label at every 10th, where three digits fit, not crowded.
TEST(CliPictures, LabelsThatFit) {
  BarChart c;
  c.series = {{"a", std::vector<double>(147, 1000.0)}};
  for (int i = 0; i < 147; ++i) c.labels.push_back("p" + std::to_string(i));
  const std::string svg = bar_chart_svg(c);
  for (int i = 0; i < 147; ++i)
    EXPECT_EQ(count_occurrences(svg, ">p" + std::to_string(i) + "<"), i % 10 == 0 ? 1u : 0u) << i;
  c.labels.resize(12);
  const std::string few = bar_chart_svg(c);
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(count_occurrences(few, ">p" + std::to_string(i) + "<"), 1u) << i;
}

}  // namespace
}  // namespace zermelo
