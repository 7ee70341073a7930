// A bar chart as a standalone SVG file, for the tables the CLI prints (`solve --plot`,
// `bfs --plot`), so that results kept in bench/results/ can carry their pictures without a
// plotting program: plain SVG 1.1, no script, readable by any browser or image viewer.
//
// Bars are grouped by label along x, one series a colour, stacked or side by side; the y axis
// is linear from 0, or logarithmic for counts that span orders of magnitude (a breadth-first
// search's plies).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace zermelo {

struct ChartSeries {
  std::string name;
  std::vector<double> values;  // one a label; missing ones count as 0
};

struct BarChart {
  std::string title, x_title, y_title;
  std::vector<std::string> labels;
  std::vector<ChartSeries> series;
  bool stacked = true;
  bool logarithmic = false;
};

std::string bar_chart_svg(const BarChart& chart);

}  // namespace zermelo
