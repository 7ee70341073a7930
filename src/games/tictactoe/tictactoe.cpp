// Tic-tac-toe: the smallest real game, a stand-in to test the pipeline end to end (as pentago's
// authors test theirs on cheap games). A state is the 3×3 board in base 3 (0 empty, 1 X, 2 O),
// cell i = row*3 + col; X moves first, so the mover follows from the counts.
#include <array>
#include <set>
#include <sstream>
#include <stdexcept>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {

constexpr std::array<std::array<int, 3>, 8> kLines = {
    {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}};
constexpr std::array<StateKey, 10> kPow3 = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683};

using Board = std::array<int, 9>;

Board decode(StateKey k) {
  Board b{};
  for (int i = 0; i < 9; ++i) b[i] = static_cast<int>(k / kPow3[i] % 3);
  return b;
}
StateKey encode(const Board& b) {
  StateKey k = 0;
  for (int i = 0; i < 9; ++i) k += static_cast<StateKey>(b[i]) * kPow3[i];
  return k;
}
int mover(const Board& b) {
  int x = 0, o = 0;
  for (int c : b) x += c == 1, o += c == 2;
  return x == o ? 1 : 2;
}
bool has_line(const Board& b, int who) {
  for (auto& l : kLines)
    if (b[l[0]] == who && b[l[1]] == who && b[l[2]] == who) return true;
  return false;
}

class TicTacToe final : public Game {
 public:
  std::string name() const override { return "tictactoe"; }

  void enumerate(const std::string&, const std::function<void(StateKey)>& emit) const override {
    std::set<StateKey> seen;
    std::vector<StateKey> stack{start()};
    std::vector<Child> kids;
    while (!stack.empty()) {
      StateKey s = stack.back();
      stack.pop_back();
      if (!seen.insert(s).second) continue;
      emit(s);
      successors(s, kids);
      for (auto& c : kids)
        if (!c.is_terminal()) stack.push_back(c.key);
    }
  }

  Value terminal_value(StateKey s) const override {
    Board b = decode(s);
    if (has_line(b, 3 - mover(b))) return Value::loss(0);
    for (int c : b)
      if (c == 0) return Value::unknown();
    return Value::draw();
  }

  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    if (terminal_value(s).is_known()) return;
    Board b = decode(s);
    int m = mover(b);
    for (int i = 0; i < 9; ++i)
      if (b[i] == 0) out.push_back(Child::state(s + static_cast<StateKey>(m) * kPow3[i]));
  }

  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    Board b = decode(s);
    int last = 3 - mover(b);  // who made the move that led here
    bool any = false;
    for (int c : b) any |= c != 0;
    if (!any) return;
    for (int i = 0; i < 9; ++i) {
      if (b[i] != last) continue;
      StateKey p = s - static_cast<StateKey>(last) * kPow3[i];
      if (!terminal_value(p).is_known()) out.push_back(p);  // a finished game has no moves
    }
  }

  StateKey start() const override { return 0; }

  std::string render(StateKey s) const override {
    Board b = decode(s);
    std::ostringstream os;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) os << ".XO"[b[r * 3 + c]];
      os << '\n';
    }
    os << (mover(b) == 1 ? "X" : "O") << " to move\n";
    return os.str();
  }

  // Nine characters row by row, '.' or '-' for empty, 'X', 'O' (a '/' between rows is allowed).
  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    Board b{};
    int n = 0;
    for (char ch : text) {
      if (ch == '/' || ch == ' ') continue;
      int v = ch == 'X' || ch == 'x'   ? 1
              : ch == 'O' || ch == 'o' ? 2
              : ch == '.' || ch == '-' ? 0
                                       : -1;
      if (v < 0 || n >= 9) {
        if (error)
          *error =
              v < 0 ? std::string("bad character '") + ch + "' (use X, O, .)" : "more than 9 cells";
        return std::nullopt;
      }
      b[n++] = v;
    }
    if (n != 9) {
      if (error) *error = "expected 9 cells, got " + std::to_string(n);
      return std::nullopt;
    }
    int x = 0, o = 0;
    for (int c : b) x += c == 1, o += c == 2;
    if (x != o && x != o + 1) {
      if (error) *error = "X must have as many marks as O or one more";
      return std::nullopt;
    }
    return encode(b);
  }

  std::string move_name(StateKey s, std::size_t i) const override {
    Board b = decode(s);
    std::size_t seen = 0;
    for (int c = 0; c < 9; ++c)
      if (b[c] == 0 && seen++ == i)
        return std::string(1, static_cast<char>('a' + c % 3)) + std::to_string(c / 3 + 1);
    return "?";
  }
};

}  // namespace
}  // namespace zermelo

ZERMELO_REGISTER_GAME(tictactoe, "3x3 noughts and crosses (pipeline stand-in)",
                      [](const std::vector<std::string>& options) {
                        if (!options.empty())  // an option ignored would solve another game
                          throw std::invalid_argument("tictactoe: takes no options, not '" +
                                                      options.front() + "'");
                        return std::make_unique<zermelo::TicTacToe>();
                      })
