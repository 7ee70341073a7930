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

// `game` names the game in the title, e.g. "onitama 3x4 boar" (chart_title).
std::string plies_chart_svg(const std::string& game, const std::vector<TierTable>& tiers);
std::string bfs_chart_svg(const std::string& game, const std::vector<std::uint64_t>& new_states);

// The game as its options name it (a variant can be a paragraph: Onitama's lists its cards).
std::string chart_title(const Game& game);

// Writes `text` to `path`, or throws naming the file.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace zermelo
