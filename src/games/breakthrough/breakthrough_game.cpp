// Breakthrough as an explicit-state Game for the retrograde engine, on small boards: the same rules
// and the same position string as the set module (breakthrough_sets.hpp), one state per string,
// so the engine's values can be checked against the DFA solver's won and lost sets.
//
// Key = side to move + 2 · Σ square_i · 3^i (square i = string position i + 1, row by row from
// P1's home row). Every string is a state, reachable or not, as in the set solver's universe.
#include <limits>
#include <stdexcept>

#include "zermelo/game.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace zermelo::breakthrough {
namespace {

class BreakthroughGame final : public Game {
 public:
  explicit BreakthroughGame(Board b) : b_(b) {
    // 2 · 3^squares keys must fit in 64 bits.
    StateKey count = 2;
    for (unsigned i = 0; i < b_.squares(); ++i) {
      if (count > std::numeric_limits<StateKey>::max() / 3)
        throw std::invalid_argument("breakthrough: " + b_.name() +
                                    " has too many positions for 64-bit keys");
      count *= 3;
    }
    states_ = count;
  }

  std::string name() const override { return "breakthrough"; }
  std::string variant() const override { return b_.name(); }

  void enumerate(const std::string&, const std::function<void(StateKey)>& emit) const override {
    for (StateKey k = 0; k < states_; ++k) emit(k);
  }
  bool enumerates_in_key_order() const override { return true; }

  // As the set module's W0/L0: the mover has lost if the opponent stands on its far row or the
  // mover has no pawn; otherwise it has won on a finished board (the mover on its far row, or the
  // opponent without pawns); and a mover with no legal move loses.
  Value terminal_value(StateKey k) const override {
    std::vector<std::uint8_t> s = decode(k);
    const unsigned me = s[0] == 0 ? kP1 : kP2, them = me == kP1 ? kP2 : kP1;
    if (on_goal(s, them) || !has_pawn(s, me)) return Value::loss(0);
    if (on_goal(s, me) || !has_pawn(s, them)) return Value::win(0);
    std::vector<Child> kids;
    successors(k, kids);
    return kids.empty() ? Value::loss(0) : Value::unknown();
  }

  void successors(StateKey k, std::vector<Child>& out) const override {
    out.clear();
    std::vector<std::uint8_t> s = decode(k);
    const std::uint8_t me = s[0] == 0 ? kP1 : kP2, them = me == kP1 ? kP2 : kP1;
    if (on_goal(s, me) || on_goal(s, them) || !has_pawn(s, me) || !has_pawn(s, them)) return;
    for_each_move(s, [&](unsigned from, unsigned to) {
      std::vector<std::uint8_t> t = s;
      t[0] = static_cast<std::uint8_t>(1 - s[0]);
      t[from] = kEmpty;
      t[to] = me;
      out.push_back(Child::state(encode(t)));
    });
  }

  StateKey start() const override { return encode(start_position(b_)); }
  std::string render(StateKey k) const override { return breakthrough::render(b_, decode(k)); }
  // The rows as the diagram prints them, top (P2's home row) first, separated by '/', then who
  // moves: "OOO/OOO/.../XXX X" ('.' empty, X P1's pawn, O P2's; X or O to move).
  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    auto fail = [&](const std::string& why) -> std::optional<StateKey> {
      if (error)
        *error = "bad " + b_.name() + " position '" + std::string(text.substr(0, 80)) +
                 "': " + why + " (write the rows from the top, e.g. OOO/OOO/.../XXX X)";
      return std::nullopt;
    };
    const auto space = text.find_last_of(' ');
    if (space == std::string_view::npos) return fail("no side to move after the rows");
    const std::string_view side = text.substr(space + 1);
    if (side != "X" && side != "O") return fail("the side to move is X or O");
    std::vector<std::uint8_t> s(1 + b_.squares(), kEmpty);
    s[0] = side == "X" ? 0 : 1;
    unsigned row = b_.height, col = 0;  // rows from the top: b_.height - 1 down to 0
    for (char ch : text.substr(0, space)) {
      if (ch == '/') {
        if (col != b_.width) return fail("a row of " + std::to_string(col) + " squares");
        col = 0;
        continue;
      }
      if (col == 0 && row-- == 0) return fail("more than " + std::to_string(b_.height) + " rows");
      if (col == b_.width)
        return fail("a row of more than " + std::to_string(b_.width) + " squares");
      const std::uint8_t v = ch == '.' ? kEmpty : ch == 'X' ? kP1 : ch == 'O' ? kP2 : 3;
      if (v == 3) return fail(std::string("bad square '") + ch + "'");
      s[b_.index(row, col++)] = v;
    }
    if (row != 0 || col != b_.width) return fail("not " + std::to_string(b_.height) + " full rows");
    return encode(s);
  }

  std::string move_name(StateKey k, std::size_t i) const override {
    std::vector<std::uint8_t> s = decode(k);
    std::size_t n = 0;
    std::string name = "#" + std::to_string(i);
    for_each_move(s, [&](unsigned from, unsigned to) {
      if (n++ == i) name = square(from) + (s[to] == kEmpty ? "-" : "x") + square(to);
    });
    return name;
  }

  std::vector<std::uint8_t> decode(StateKey k) const {
    std::vector<std::uint8_t> s(1 + b_.squares());
    s[0] = static_cast<std::uint8_t>(k % 2);
    k /= 2;
    for (unsigned i = 1; i < s.size(); ++i, k /= 3) s[i] = static_cast<std::uint8_t>(k % 3);
    return s;
  }
  StateKey encode(const std::vector<std::uint8_t>& s) const {
    StateKey k = 0;
    for (unsigned i = static_cast<unsigned>(s.size()); i-- > 1;) k = k * 3 + s[i];
    return k * 2 + s[0];
  }

 private:
  bool on_goal(const std::vector<std::uint8_t>& s, unsigned who) const {
    unsigned row = who == kP1 ? b_.height - 1 : 0;
    for (unsigned c = 0; c < b_.width; ++c)
      if (s[b_.index(row, c)] == who) return true;
    return false;
  }
  static bool has_pawn(const std::vector<std::uint8_t>& s, unsigned who) {
    for (std::size_t i = 1; i < s.size(); ++i)
      if (s[i] == who) return true;
    return false;
  }
  // Calls f(from, to) (string positions) for every legal move of the player to move, in order:
  // squares row by row, then left diagonal, straight, right diagonal.
  template <class F>
  void for_each_move(const std::vector<std::uint8_t>& s, F&& f) const {
    const std::uint8_t me = s[0] == 0 ? kP1 : kP2, them = me == kP1 ? kP2 : kP1;
    const int dir = me == kP1 ? 1 : -1;
    for (unsigned r = 0; r < b_.height; ++r) {
      int tr = static_cast<int>(r) + dir;
      if (tr < 0 || tr >= static_cast<int>(b_.height)) continue;
      for (unsigned c = 0; c < b_.width; ++c) {
        if (s[b_.index(r, c)] != me) continue;
        for (int dc = -1; dc <= 1; ++dc) {
          int tc = static_cast<int>(c) + dc;
          if (tc < 0 || tc >= static_cast<int>(b_.width)) continue;
          unsigned to = b_.index(static_cast<unsigned>(tr), static_cast<unsigned>(tc));
          if (s[to] == kEmpty || (dc != 0 && s[to] == them)) f(b_.index(r, c), to);
        }
      }
    }
  }
  std::string square(unsigned position) const {
    unsigned i = position - 1;
    return std::string(1, static_cast<char>('a' + i % b_.width)) + std::to_string(i / b_.width + 1);
  }

  Board b_;
  StateKey states_ = 0;
};

}  // namespace
}  // namespace zermelo::breakthrough

ZERMELO_REGISTER_GAME(breakthrough,
                      "Breakthrough WxH (default 3x4), every position string; small boards (set "
                      "solver: zermelo breakthrough solve)",
                      [](const std::vector<std::string>& opts) -> std::unique_ptr<zermelo::Game> {
                        if (opts.size() > 1)
                          throw std::invalid_argument("breakthrough: one option, the board WxH");
                        zermelo::breakthrough::Board b =
                            zermelo::breakthrough::parse_board(opts.empty() ? "3x4" : opts[0]);
                        return std::make_unique<zermelo::breakthrough::BreakthroughGame>(b);
                      })
