// Onitama move cards: the 16 standard cards of the spec (Boar among them) and cards written on a
// command line as offset lists. A card is pure data here; how its offsets apply to a board (the
// flip for Red, who sits at the top) is the rules' business (rules.hpp).
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zermelo::onitama {

// Offsets (dx, dy) from the holder's point of view: dy = -1 is one step forward, dx = +1 one
// step to the holder's right. `red` is the card's colour (who starts when it is set aside).
struct Card {
  std::string name;
  bool red = true;
  std::vector<std::pair<int, int>> offsets;  // sorted, distinct, never (0, 0)

  // Two cards play identically when their offsets are equal; colour only picks the starter.
  bool same_moves(const Card& o) const { return offsets == o.offsets; }
};

const std::vector<Card>& standard_cards();

// One card: a standard name (case-insensitive) or an offset list "(dx,dy)(dx,dy)..." with an
// optional "name=" prefix and "@red" / "@blue" suffix (default red). Throws std::invalid_argument.
Card parse_card(std::string_view text);

// The five cards of a game: one card (five copies of it, e.g. "boar") or five cards separated by
// commas. Order: Red's two, Blue's two, then the set-aside card. Throws std::invalid_argument.
std::vector<Card> parse_deck(std::string_view text);

std::string describe(const Card& c);  // "Boar (red): (-1,0) (0,-1) (1,0)"

}  // namespace zermelo::onitama
