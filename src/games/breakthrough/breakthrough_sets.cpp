// Breakthrough's positions, terminal sets and moves as DFA sets
// (see zermelo/games/breakthrough/breakthrough_sets.hpp).
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

#include <stdexcept>

namespace zermelo::breakthrough {
namespace {

constexpr std::uint8_t kP1ToMove = 0, kP2ToMove = 1;

unsigned parse_dimension(const std::string& text, const std::string& whole) {
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("breakthrough: bad board '" + whole + "' (expected WxH, e.g. 3x4)");
  return static_cast<unsigned>(std::stoul(text));
}

}  // namespace

Board parse_board(const std::string& text) {
  auto x = text.find_first_of("xX");
  if (x == std::string::npos)
    throw std::invalid_argument("breakthrough: bad board '" + text + "' (expected WxH, e.g. 3x4)");
  Board b{parse_dimension(text.substr(0, x), text), parse_dimension(text.substr(x + 1), text)};
  if (b.width < 2 || b.width > 12)
    throw std::invalid_argument("breakthrough: board width must be 2..12, got " +
                                std::to_string(b.width));
  if (b.height < 4 || b.height > 12)
    throw std::invalid_argument(
        "breakthrough: board height must be 4..12 (two home rows each), got " +
        std::to_string(b.height));
  if (b.squares() > 40)
    throw std::invalid_argument("breakthrough: at most 40 squares, " + b.name() + " has " +
                                std::to_string(b.squares()));
  return b;
}

std::unique_ptr<dfa::Manager> make_manager(const Board& b, std::uint64_t memory_budget) {
  std::vector<unsigned> alphabet(1 + b.squares(), 3);
  alphabet[0] = 2;
  return std::make_unique<dfa::Manager>(alphabet, memory_budget);
}

dfa::SetGame make_game(dfa::Manager& m, const Board& b) {
  if (m.length() != 1 + b.squares())
    throw std::invalid_argument("breakthrough: manager does not match the board");
  dfa::SetGame g;
  g.name = "breakthrough " + b.name();
  g.manager = &m;
  g.all = m.universe();

  // Terminal conditions.
  dfa::Set p1_on_goal = m.empty(), p2_on_goal = m.empty();
  for (unsigned c = 0; c < b.width; ++c) {
    p1_on_goal = p1_on_goal | m.with_char(b.index(b.height - 1, c), kP1);
    p2_on_goal = p2_on_goal | m.with_char(b.index(0, c), kP2);
  }
  std::vector<std::uint32_t> no_p1_mask(m.length(), 0b111), no_p2_mask(m.length(), 0b111);
  no_p1_mask[0] = no_p2_mask[0] = 0b11;
  for (unsigned i = 1; i < m.length(); ++i) {
    no_p1_mask[i] = (1u << kEmpty) | (1u << kP2);
    no_p2_mask[i] = (1u << kEmpty) | (1u << kP1);
  }
  dfa::Set no_p1 = m.cube(no_p1_mask), no_p2 = m.cube(no_p2_mask);
  dfa::Set p1_moves = m.with_char(0, kP1ToMove), p2_moves = m.with_char(0, kP2ToMove);
  // The player to move has lost if the opponent reached its far row or the mover has no pawns.
  g.lost0 = (p1_moves & (p2_on_goal | no_p1)) | (p2_moves & (p1_on_goal | no_p2));
  // Otherwise a finished board (only off the legal path: the mover reached its row or took all).
  dfa::Set terminal = p1_on_goal | p2_on_goal | no_p1 | no_p2;
  g.won0 = terminal - g.lost0;
  const dfa::Set nonterminal = g.all - terminal;

  auto square = [&](unsigned r, unsigned c) {
    return std::string(1, static_cast<char>('a' + c)) + std::to_string(r + 1);
  };
  for (int player = 1; player <= 2; ++player) {
    const std::uint8_t pawn = player == 1 ? kP1 : kP2, enemy = player == 1 ? kP2 : kP1;
    const std::uint8_t side = player == 1 ? kP1ToMove : kP2ToMove,
                       other = player == 1 ? kP2ToMove : kP1ToMove;
    const int dir = player == 1 ? 1 : -1;
    for (unsigned r = 0; r < b.height; ++r) {
      int to_row = static_cast<int>(r) + dir;
      if (to_row < 0 || to_row >= static_cast<int>(b.height)) continue;
      for (unsigned c = 0; c < b.width; ++c) {
        for (int dc = -1; dc <= 1; ++dc) {
          int to_col = static_cast<int>(c) + dc;
          if (to_col < 0 || to_col >= static_cast<int>(b.width)) continue;
          unsigned tr = static_cast<unsigned>(to_row), tc = static_cast<unsigned>(to_col);
          dfa::Relabel turn{0, {{side, other}}};
          dfa::Relabel from{b.index(r, c), {{pawn, kEmpty}}};
          dfa::Relabel to{b.index(tr, tc), {{kEmpty, pawn}}};
          if (dc != 0)
            to.pairs.emplace_back(enemy, pawn);  // diagonal: onto an empty square or a capture
          g.add_move(std::string(player == 1 ? "P1 " : "P2 ") + square(r, c) +
                         (dc == 0 ? "-" : "x") + square(tr, tc),
                     nonterminal, g.all, dfa::Change{{turn, from, to}});
        }
      }
    }
  }
  g.start = start_position(b);
  g.render = [b](const std::vector<std::uint8_t>& s) { return render(b, s); };
  return g;
}

std::vector<std::uint8_t> start_position(const Board& b) {
  std::vector<std::uint8_t> s(1 + b.squares(), kEmpty);
  s[0] = kP1ToMove;
  for (unsigned c = 0; c < b.width; ++c) {
    s[b.index(0, c)] = s[b.index(1, c)] = kP1;
    s[b.index(b.height - 1, c)] = s[b.index(b.height - 2, c)] = kP2;
  }
  return s;
}

std::string render(const Board& b, const std::vector<std::uint8_t>& s) {
  std::string out;
  for (unsigned r = b.height; r-- > 0;) {
    out += std::to_string(r + 1) + (r + 1 < 10 ? "  " : " ");
    for (unsigned c = 0; c < b.width; ++c) out += ".XO"[s.at(b.index(r, c))];
    out += '\n';
  }
  out += "   ";
  for (unsigned c = 0; c < b.width; ++c) out += static_cast<char>('a' + c);
  out += s.at(0) == kP1ToMove ? "\nP1 (X) to move\n" : "\nP2 (O) to move\n";
  return out;
}

}  // namespace zermelo::breakthrough
