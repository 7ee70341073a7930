// The one way a state and a move are read from what a person types, for every command and API
// that takes one (query, decode, play, serve, the probe API). Each game parses its own notation
// (Game::parse, Game::parse_move); what is common to all games lives here, once: the word
// `start`, surrounding blanks, and error messages that name the game and, for a move, the moves
// that are legal instead.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "zermelo/game.hpp"

namespace zermelo {

// The word that names a game's start position wherever a state is taken.
inline constexpr std::string_view kStartWord = "start";

// Whether `text`, blanks around it aside, is the word `start`.
bool names_the_start(std::string_view text);

// The state `text` names: `start`, or the game's text form. Throws std::invalid_argument
// ("GAME: cannot read state 'TEXT': why") when it is neither.
StateKey read_state(const Game& game, std::string_view text);

// The index in successors(s) of the move `text` names (the game's move_name, or another
// spelling its parse_move accepts). Throws std::invalid_argument with the reason and the legal
// moves when it names none, or more than one.
std::size_t read_move(const Game& game, StateKey s, std::string_view text);

// Every legal move of s by name, separated by spaces.
std::string legal_moves_text(const Game& game, StateKey s);

}  // namespace zermelo
