// A state drawn as an SVG picture, for the web explorer (`zermelo serve`) and `query --svg`.
//
// A person reads a board faster than a diagram of letters, and every game already prints its
// diagram (Game::render), so the picture is drawn from that text: a game's module is not touched
// to be drawn. Tic-tac-toe, Nim's heaps, Onitama (its pieces and its cards' moves), Ostle and
// ostle-mini (the hole), and Breakthrough each have their own drawing; any other game's diagram
// is set in monospace, so every state has a picture. The picture is plain SVG 1.1 with no script
// and no outside reference: it can be inlined in a page or saved to a file as it is.
#pragma once
#include <string>

#include "zermelo/game.hpp"

namespace zermelo {

// The picture of state `key` of `game` (a complete <svg> element).
std::string board_svg(const Game& game, StateKey key);

// Who is to move, as the game's diagram names the player ("X", "Red", "P1 (X)"), or "" when
// the diagram does not say (Nim).
std::string side_to_move(const std::string& diagram);

}  // namespace zermelo
