// Bar charts as SVG (svg_chart.hpp).
#include "zermelo/serve/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace zermelo {
namespace {

constexpr const char* kColours[] = {"#1f5fbf", "#c0392b", "#1e8449", "#b9770e",
                                    "#7d3c98", "#117a65", "#555555"};
constexpr int kWidth = 900, kPlotHeight = 460;
constexpr int kLeft = 90, kRight = 20, kTop = 48, kBottom = 70;

std::string escaped(const std::string& s) {
  std::string out;
  for (char ch : s)
    out += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
  return out;
}

// 1234567 -> "1.23M"; small numbers as they are.
std::string short_number(double v) {
  char buf[32];
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (std::fabs(v) >= 1000 && u < 5) v /= 1000, ++u;
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f" : "%.3g%s", v, units[u]);
  return buf;
}

std::string exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Seven fixed colours, or as many hues as there are series beyond that (Nim's many tiers).
std::string colour(std::size_t k, std::size_t of) {
  if (of <= std::size(kColours)) return kColours[k];
  return "hsl(" + std::to_string(k * 360 / of) + ",60%,45%)";
}

double value_at(const ChartSeries& s, std::size_t i) {
  return i < s.values.size() ? s.values[i] : 0;
}

// Every how many bars an x label is written: the least of 1, 2, 5, 10, 20, 50... at which the
// widest label (about 7 pixels a character at 12 px, and a gap) fits in its bars' width.
std::size_t label_step(const std::vector<std::string>& labels, double slot) {
  std::size_t widest = 1;
  for (auto& l : labels) widest = std::max(widest, l.size());
  const double needed = (7.0 * static_cast<double>(widest) + 8) / std::max(slot, 1e-9);
  for (std::size_t step = 1;; step *= 10)
    for (std::size_t m : {1, 2, 5})
      if (static_cast<double>(step * m) >= needed) return step * m;
}

}  // namespace

std::string bar_chart_svg(const BarChart& c) {
  const std::size_t n = c.labels.size();
  double top = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (auto& s : c.series) {
      sum = c.stacked ? sum + value_at(s, i) : std::max(sum, value_at(s, i));
    }
    top = std::max(top, sum);
  }
  top = std::max(top, 1.0);
  // A round top for a linear axis: 5 steps of 1, 2 or 5 times a power of ten.
  const double unit = std::pow(10.0, std::floor(std::log10(top / 5)));
  double step = unit;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (unit * m * 5 >= top) {
      step = unit * m;
      break;
    }
  if (!c.logarithmic) top = std::max(1.0, step * std::ceil(top / step));
  // The legend's rows, along the bottom: a series a swatch and its name.
  std::vector<std::pair<double, int>> legend;  // x, row
  double lx = kLeft;
  int rows = 1;
  for (auto& s : c.series) {
    const double w = 30 + 7.0 * static_cast<double>(s.name.size());
    if (lx + w > kWidth - kRight && lx > kLeft) lx = kLeft, ++rows;
    legend.emplace_back(lx, rows - 1);
    lx += w;
  }
  const int height = kPlotHeight + 18 * (rows - 1);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kPlotHeight - kTop - kBottom;
  // y of a value: linear from 0, or log10 from 1/2 (so that a bar of 1 shows; 0 is not drawn).
  const double log_top = std::max(1.0, std::ceil(std::log10(top))), log_bottom = std::log10(0.5);
  auto y_of = [&](double v) {
    if (c.logarithmic)
      return kTop +
             plot_h * (1 - (std::log10(std::max(v, 0.5)) - log_bottom) / (log_top - log_bottom));
    return kTop + plot_h * (1 - v / top);
  };
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
     << "\" viewBox=\"0 0 " << kWidth << ' ' << height
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<rect width=\"" << kWidth << "\" height=\"" << height << "\" fill=\"#fff\"/>\n"
     << "<text x=\"" << kWidth / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">"
     << escaped(c.title) << "</text>\n";
  // Grid lines and their values.
  const int ticks = c.logarithmic ? static_cast<int>(log_top) : static_cast<int>(top / step + 0.5);
  for (int t = 0; t <= ticks; ++t) {
    const double v = c.logarithmic ? std::pow(10.0, t) : top * t / ticks;
    const double y = y_of(v);
    os << "<line x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\"" << y << "\" y2=\""
       << y << "\" stroke=\"#e3e3e3\"/>\n"
       << "<text x=\"" << kLeft - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\" "
       << "fill=\"#555\">" << short_number(v) << "</text>\n";
  }
  // Bars.
  const double slot = plot_w / static_cast<double>(std::max<std::size_t>(n, 1));
  const std::size_t side_by_side = c.stacked ? 1 : std::max<std::size_t>(c.series.size(), 1);
  const double bar = std::max(1.0, slot * 0.8 / static_cast<double>(side_by_side));
  const std::size_t label_every = label_step(c.labels, slot);
  for (std::size_t i = 0; i < n; ++i) {
    double base = 0;
    for (std::size_t k = 0; k < c.series.size(); ++k) {
      const double v = value_at(c.series[k], i);
      if (v <= 0) continue;
      const double x = kLeft + slot * static_cast<double>(i) + slot * 0.1 +
                       (c.stacked ? 0 : bar * static_cast<double>(k));
      const double y0 = y_of(base), y1 = y_of(base + v);
      if (c.stacked) base += v;
      os << "<rect x=\"" << x << "\" y=\"" << y1 << "\" width=\"" << bar << "\" height=\""
         << std::max(0.0, (c.stacked ? y0 : kTop + plot_h) - y1) << "\" fill=\""
         << colour(k, c.series.size()) << "\"><title>" << escaped(c.series[k].name) << ", "
         << escaped(c.labels[i]) << ": " << exact(v) << "</title></rect>\n";
    }
    if (i % label_every == 0)
      os << "<text x=\"" << kLeft + slot * (static_cast<double>(i) + 0.5) << "\" y=\""
         << kTop + plot_h + 16 << "\" text-anchor=\"middle\" fill=\"#555\">" << escaped(c.labels[i])
         << "</text>\n";
  }
  os << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft << "\" y1=\"" << kTop << "\" y2=\""
     << kTop + plot_h << "\" stroke=\"#999\"/>\n"
     << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kPlotHeight - 30
     << "\" text-anchor=\"middle\">" << escaped(c.x_title) << "</text>\n"
     << "<text transform=\"translate(18 " << kTop + plot_h / 2
     << ") rotate(-90)\" text-anchor=\"middle\">" << escaped(c.y_title) << "</text>\n";
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    const auto [x, row] = legend[k];
    const int y = kPlotHeight - 18 + 18 * row;
    os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\""
       << colour(k, c.series.size()) << "\"/>\n<text x=\"" << x + 16 << "\" y=\"" << y + 10 << "\">"
       << escaped(c.series[k].name) << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

}  // namespace zermelo
