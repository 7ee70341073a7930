// Charts of a solve's and a search's tables (table_charts.hpp).
#include "zermelo/serve/table_charts.hpp"

#include <stdexcept>

#include "zermelo/serve/svg_chart.hpp"

namespace zermelo {
std::string chart_title(const Game& g) {
  std::string title = g.name();
  for (auto& o : g.options()) title += " " + o;
  return title;
}

ChartScale chart_scale(const std::string& word) {
  if (word.empty()) return ChartScale::kDefault;
  if (word == "linear") return ChartScale::kLinear;
  if (word == "log") return ChartScale::kLog;
  throw std::invalid_argument("a chart's scale is linear or log, not '" + word + "'");
}

std::string plies_chart_svg(const std::string& game, const std::vector<TierTable>& tiers,
                            ChartScale scale) {
  BarChart c;
  c.title = game + ": states by plies to the end of perfect play";
  c.x_title = "plies (0: decided by the rules; wins and losses alike)";
  c.logarithmic = scale == ChartScale::kLog;
  c.y_title = c.logarithmic ? "states (log scale)" : "states";
  std::uint32_t most = 0;
  for (auto& t : tiers)
    if (!t.by_plies.empty()) most = std::max(most, t.by_plies.rbegin()->first);
  for (std::uint32_t p = 0; p <= most; ++p) c.labels.push_back(std::to_string(p));
  for (auto& t : tiers) {
    ChartSeries s{"tier " + t.tier, std::vector<double>(most + 1, 0.0)};
    for (auto& [p, n] : t.by_plies) s.values[p] = static_cast<double>(n);
    c.series.push_back(std::move(s));
  }
  return bar_chart_svg(c);
}

std::string bfs_chart_svg(const std::string& game, const std::vector<std::uint64_t>& new_states,
                          ChartScale scale) {
  BarChart c;
  c.title = game + ": new states per ply from the start (breadth-first)";
  c.x_title = "ply";
  c.logarithmic = scale != ChartScale::kLinear;
  c.y_title = c.logarithmic ? "new states (log scale)" : "new states";
  ChartSeries s{"new states", {}};
  for (std::size_t i = 0; i < new_states.size(); ++i) {
    c.labels.push_back(std::to_string(i));
    s.values.push_back(static_cast<double>(new_states[i]));
  }
  c.series.push_back(std::move(s));
  return bar_chart_svg(c);
}

}  // namespace zermelo
