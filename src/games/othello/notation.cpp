// Othello board/move text: parsing with errors that name the problem, and rendering.
#include "zermelo/games/othello/notation.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "zermelo/engine/state_text.hpp"
#include "zermelo/games/othello/board_size.hpp"

namespace zermelo::othello {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

Position start_position(int size) {
  check_board_size(size);
  Position pos;
  pos.size = size;
  const int h = size / 2;
  pos.black = bit(h * 8 + (h - 1)) | bit((h - 1) * 8 + h);
  pos.white = bit((h - 1) * 8 + (h - 1)) | bit(h * 8 + h);
  return pos;
}

bool parse_side(std::string_view side) {
  const std::string s = lower(trim(side));
  if (s == "x" || s == "b" || s == "black" || s == "*") return false;
  if (s == "o" || s == "w" || s == "white") return true;
  throw std::invalid_argument("othello: side to move must be X/B/black or O/W/white, not '" +
                              std::string(side) + "'");
}

Position parse_position(std::string_view board, std::string_view side, int size) {
  if (names_the_start(board)) {
    if (!trim(side).empty() && parse_side(side))
      throw std::invalid_argument("othello: at the start Black (X) moves, not '" +
                                  std::string(side) + "'");
    return start_position(size);
  }
  check_board_size(size);
  Position pos;
  pos.size = size;
  int sq = 0;
  const int squares = size * size;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (sq >= squares)
      throw std::invalid_argument("othello: board has more than " + std::to_string(squares) +
                                  " squares (extra '" + std::string(1, c) + "' at character " +
                                  std::to_string(i + 1) + ")");
    const int at = (sq / size) * 8 + sq % size;
    switch (c) {
      case 'X':
      case 'x':
      case '*':
      case 'B':
      case 'b':
        pos.black |= bit(at);
        break;
      case 'O':
      case 'o':
      case 'W':
      case 'w':
      case '0':
        pos.white |= bit(at);
        break;
      case '-':
      case '.':
      case '_':
        break;
      default:
        throw std::invalid_argument("othello: board character '" + std::string(1, c) +
                                    "' at position " + std::to_string(i + 1) +
                                    " is not X (black), O (white) or - (empty)");
    }
    ++sq;
  }
  if (sq != squares)
    throw std::invalid_argument("othello: board has " + std::to_string(sq) + " squares, expected " +
                                std::to_string(squares) + " for " + std::to_string(size) + "x" +
                                std::to_string(size));
  pos.white_to_move = parse_side(side);
  return pos;
}

int parse_square(std::string_view text, int size) {
  check_board_size(size);
  const std::string s = lower(trim(text));
  if (s == "ps" || s == "pass" || s == "--") return kPass;
  if (s.size() != 2 || s[0] < 'a' || s[0] >= 'a' + size || s[1] < '1' || s[1] >= '1' + size)
    throw std::invalid_argument("othello: '" + std::string(text) + "' is not a square of the " +
                                std::to_string(size) + "x" + std::to_string(size) + " board (A1.." +
                                std::string(1, static_cast<char>('A' + size - 1)) +
                                std::to_string(size) + " or PS for a pass)");
  return (s[1] - '1') * 8 + (s[0] - 'a');
}

std::string square_name(int sq) {
  if (sq == kPass) return "PS";
  return std::string{static_cast<char>('A' + sq % 8), static_cast<char>('1' + sq / 8)};
}

std::string board_string(const Position& pos) {
  std::string s;
  for (int r = 0; r < pos.size; ++r)
    for (int c = 0; c < pos.size; ++c) {
      const Bits b = bit(r * 8 + c);
      s += (pos.black & b) ? 'X' : (pos.white & b) ? 'O' : '-';
    }
  return s;
}

std::string render(const Position& pos) {
  std::ostringstream out;
  out << "  ";
  for (int c = 0; c < pos.size; ++c) out << ' ' << static_cast<char>('A' + c);
  out << "\n";
  for (int r = 0; r < pos.size; ++r) {
    out << ' ' << (r + 1) << ' ';
    for (int c = 0; c < pos.size; ++c) {
      const Bits b = bit(r * 8 + c);
      out << ((pos.black & b) ? 'X' : (pos.white & b) ? 'O' : '-') << (c + 1 < pos.size ? " " : "");
    }
    out << "\n";
  }
  out << "X " << popcount(pos.black) << "  O " << popcount(pos.white) << "  "
      << (pos.white_to_move ? "O (white)" : "X (black)") << " to move\n";
  return out.str();
}

int ObfEntry::best_score() const {
  int best = -1000;
  for (auto& [m, s] : move_scores) best = std::max(best, s);
  return best;
}

std::vector<int> ObfEntry::best_moves() const {
  std::vector<int> out;
  const int best = best_score();
  for (auto& [m, s] : move_scores)
    if (s == best) out.push_back(m);
  return out;
}

Position parse_board_and_side(std::string_view text, int size) {
  text = trim(text);
  const auto space = text.find_last_of(" \t");
  if (space != std::string_view::npos)
    return parse_position(text.substr(0, space), text.substr(space + 1), size);
  const auto squares = static_cast<std::size_t>(size * size);
  if (text.size() != squares + 1)
    throw std::invalid_argument(
        "othello: a position is '<board> <side>' or " + std::to_string(squares + 1) +
        " characters (" + std::to_string(squares) + " squares, then X or O), not '" +
        std::string(text) + "' (" + std::to_string(text.size()) + " characters)");
  return parse_position(text.substr(0, squares), text.substr(squares), size);
}

ObfEntry parse_obf_line(std::string_view line, int size) {
  line = trim(line);
  const auto semi = line.find(';');
  ObfEntry e;
  e.position = parse_board_and_side(line.substr(0, semi), size);
  std::string_view rest =
      semi == std::string_view::npos ? std::string_view{} : line.substr(semi + 1);
  while (!rest.empty()) {
    const auto next = rest.find(';');
    const std::string_view item = trim(rest.substr(0, next));
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    if (item.empty()) continue;
    const auto colon = item.find(':');
    if (colon == std::string_view::npos)
      throw std::invalid_argument("othello: .obf move score '" + std::string(item) +
                                  "' is not MOVE:SCORE");
    const int sq = parse_square(item.substr(0, colon), size);
    const std::string score_text(trim(item.substr(colon + 1)));
    std::size_t used = 0;
    int score = 0;
    try {
      score = std::stoi(score_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != score_text.size())
      throw std::invalid_argument("othello: .obf score '" + score_text + "' is not an integer");
    e.move_scores.emplace_back(sq, score);
  }
  return e;
}

std::vector<ObfEntry> read_obf_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("othello: cannot open .obf file '" + path + "'");
  std::vector<ObfEntry> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string_view t = trim(line);
    if (t.empty() || t[0] == '%' || t[0] == '#') continue;
    try {
      out.push_back(parse_obf_line(t));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + " line " + std::to_string(number) + ": " + e.what());
    }
    out.back().line = number;
  }
  return out;
}

}  // namespace zermelo::othello
