// The charts of the two tables Zermelo prints most, as SVG files (`solve --plot FILE`,
// `bfs --plot FILE`): states by plies to the end, one stacked colour a tier, and a breadth-first
// search's new states per ply (on a logarithmic axis: they span orders of magnitude).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/serve/value_tables.hpp"

namespace zermelo {

// The y axis of a chart: its table's own (linear for states by plies, logarithmic for a search's
// levels), or as asked (`--plot-scale`, `plot --scale`). States by plies span orders of magnitude
// too (Ostle: 10^9 states at 0 plies, a handful at 146), whose tail a linear axis hides.
enum class ChartScale { kDefault, kLinear, kLog };

// "" (kDefault), "linear" or "log"; anything else throws, naming the words it takes.
ChartScale chart_scale(const std::string& word);

// `game` names the game in the title, e.g. "onitama 3x4 boar" (chart_title).
std::string plies_chart_svg(const std::string& game, const std::vector<TierTable>& tiers,
                            ChartScale scale = ChartScale::kDefault);
std::string bfs_chart_svg(const std::string& game, const std::vector<std::uint64_t>& new_states,
                          ChartScale scale = ChartScale::kDefault);

// The game as its options name it (a variant can be a paragraph: Onitama's lists its cards).
std::string chart_title(const Game& game);

}  // namespace zermelo
