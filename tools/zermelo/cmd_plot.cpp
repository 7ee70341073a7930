// `zermelo plot JSON [--out FILE.svg|FILE.png] [--scale linear|log]`: the chart of a table saved
// from `solve --json` (states by plies, a colour a tier) or `bfs --json` (new states per ply), for
// results kept as JSON in bench/results/ whose work dirs are gone or too large to read again.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/serve/picture_file.hpp"
#include "zermelo/serve/table_charts.hpp"

namespace zermelo::cli {
namespace {

TierTable table_of(const std::string& tier, const nlohmann::json& t) {
  TierTable out;
  out.tier = tier;
  for (auto& [plies, count] : t.at("by_plies").items())
    out.by_plies[static_cast<std::uint32_t>(std::stoul(plies))] = count.get<std::uint64_t>();
  return out;
}

struct PlotArgs {
  std::string in, out, scale;
};

void plot(const PlotArgs& a) {
  const std::string& in = a.in;
  std::string out = a.out;
  if (out.empty()) out = (in.ends_with(".json") ? in.substr(0, in.size() - 5) : in) + ".svg";
  check_picture_path(out);
  const ChartScale scale = chart_scale(a.scale);
  std::ifstream file(in);
  if (!file) throw std::runtime_error("cannot read " + in);
  const nlohmann::json doc = nlohmann::json::parse(file, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw std::runtime_error(in + " is not JSON");
  std::string title = doc.value("game", "?");
  const std::string variant = doc.value("variant", "");
  if (!variant.empty() && variant.size() <= 24) title += " " + variant;
  if (doc.contains("new_states_per_ply")) {
    const auto levels = doc["new_states_per_ply"].get<std::vector<std::uint64_t>>();
    write_picture(out, bfs_chart_svg(title, levels, scale));
  } else if (doc.contains("tiers") && doc["tiers"].is_array()) {
    std::vector<TierTable> tables;
    for (auto& t : doc["tiers"]) tables.push_back(table_of(t.value("tier", "?"), t));
    write_picture(out, plies_chart_svg(title, tables, scale));
  } else if (doc.contains("by_plies")) {
    write_picture(out, plies_chart_svg(title, {table_of(doc.value("tier", "all"), doc)}, scale));
  } else {
    throw std::runtime_error(in +
                             " holds neither `solve --json` (by_plies) nor `bfs --json` "
                             "(new_states_per_ply) output");
  }
  std::cout << out << "\n";
}

// JSON of another shape (a manifest, say) names the file, not a field deep in the library.
void run_plot(const PlotArgs& a) {
  try {
    plot(a);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(a.in + " is not the output of `solve --json` or `bfs --json` (" +
                             e.what() + ")");
  }
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(27, [](CLI::App& app) {
  using zermelo::cli::PlotArgs;
  auto* sub = app.add_subcommand(
      "plot", "draw the table of a saved `solve --json` or `bfs --json` as an SVG or PNG chart");
  auto& a = zermelo::cli::command_options<PlotArgs>(sub, zermelo::cli::run_plot);
  sub->add_option("json", a.in, "the saved JSON output")->required();
  sub->add_option("--out", a.out,
                  "the picture, FILE.svg or FILE.png (default: the JSON's name with .svg)");
  sub->add_option("--scale", a.scale,
                  "the y axis: linear or log (default: linear for states by plies, log for a "
                  "search's new states per ply)")
      ->check(CLI::IsMember({"linear", "log"}));
  sub->footer(
      "Example: zermelo plot bench/results/ostle-bfs.json\n"
      "         zermelo plot bench/results/ostle-bfs.json --out bench/results/ostle-bfs.png");
});
