// The rules of small-board Ostle on a plain cell array (see zermelo/games/ostle/mini.hpp).
#include "zermelo/games/ostle/mini.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace zermelo::ostle::mini {

namespace {
constexpr char kDirLetter[4] = {'U', 'D', 'L', 'R'};
constexpr int opposite(int d) { return d ^ 1; }

Board swapped(Board b) {
  for (auto& c : b.cell)
    if (c == kMine || c == kTheirs) c = static_cast<std::uint8_t>(3 - c);
  return b;
}

bool occupied(const Board& b, int s) {
  return s >= 0 && (b.cell[s] == kMine || b.cell[s] == kTheirs);
}
}  // namespace

Rules::Rules(int width, int height, int pieces) : w_(width), h_(height), p_(pieces) {
  if (w_ < 2 || h_ < 3 || w_ > 9 || h_ > 9 || w_ * h_ > kMaxSquares)
    throw std::invalid_argument("ostle-mini: board " + variant() +
                                " unsupported (width 2-9, height 3-9, at most " +
                                std::to_string(kMaxSquares) + " squares)");
  if (p_ < 2 || p_ > w_)
    throw std::invalid_argument("ostle-mini: " + std::to_string(p_) +
                                " pieces a side unsupported on width " + std::to_string(w_) +
                                " (2 to the width: the start fills part of rank 1)");
  for (int g = 0; g < symmetries(); ++g)
    for (int s = 0; s < squares(); ++s) {
      int f = file_of(s), r = rank_of(s);
      if (g & 4) std::swap(f, r);  // transpose (square boards only), then mirror
      if (g & 1) f = w_ - 1 - f;
      if (g & 2) r = h_ - 1 - r;
      image_[static_cast<std::size_t>(g)][static_cast<std::size_t>(s)] =
          static_cast<std::uint8_t>(square_at(f, r));
    }
  for (int s = 0; s < squares(); ++s) {
    const int f = file_of(s), r = rank_of(s);
    const int up = r == 0 ? -1 : s - 1, down = r == h_ - 1 ? -1 : s + 1;
    const int left = f == 0 ? -1 : s - h_, right = f == w_ - 1 ? -1 : s + h_;
    step_[static_cast<std::size_t>(s)] = {
        static_cast<std::int8_t>(up), static_cast<std::int8_t>(down),
        static_cast<std::int8_t>(left), static_cast<std::int8_t>(right)};
  }
}

Rules Rules::from_variant(std::string_view text) {
  auto fail = [&](const std::string& why) -> Rules {
    throw std::invalid_argument("ostle-mini: bad variant '" + std::string(text) + "': " + why +
                                " (expected WxH:pP, e.g. 4x4:p3)");
  };
  const auto x = text.find('x'), colon = text.find(":p");
  if (x == std::string_view::npos || colon == std::string_view::npos || colon < x)
    return fail("malformed");
  auto number = [&](std::string_view part, int& out) {
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && ptr == part.data() + part.size() && !part.empty();
  };
  int w = 0, h = 0, p = 0;
  if (!number(text.substr(0, x), w)) return fail("width is not a number");
  if (!number(text.substr(x + 1, colon - x - 1), h)) return fail("height is not a number");
  if (!number(text.substr(colon + 2), p)) return fail("piece count is not a number");
  return Rules(w, h, p);
}

std::string Rules::variant() const {
  return std::to_string(w_) + "x" + std::to_string(h_) + ":p" + std::to_string(p_);
}

int Rules::count(const Board& b, Cell who) const {
  int n = 0;
  for (int s = 0; s < squares(); ++s) n += b.cell[s] == who;
  return n;
}

std::vector<MiniMove> Rules::legal_moves(const Board& b, int forbid) const {
  std::vector<MiniMove> out;
  for (int s = 0; s < squares(); ++s) {
    if (b.cell[s] != kMine && b.cell[s] != kHole) continue;
    for (int d = 0; d < 4; ++d) {
      if (b.cell[s] == kHole) {
        const int t = step(s, d);
        if (t < 0 || b.cell[t] != kEmpty) continue;  // the hole moves only onto an empty square
      }
      const MiniMove m{s, d};
      if (m.forbid() != forbid) out.push_back(m);
    }
  }
  return out;
}

Played Rules::play(const Board& b, MiniMove m) const {
  if (m.square < 0 || m.square >= squares() || m.dir < 0 || m.dir > 3)
    throw std::invalid_argument("ostle-mini: no move " + std::to_string(m.square) + "/" +
                                std::to_string(m.dir) + " on " + variant());
  Played r;
  Board n = b;
  if (b.cell[m.square] == kHole) {
    const int t = step(m.square, m.dir);
    n.cell[m.square] = kEmpty, n.cell[t] = kHole, n.hole = t;
    r.next = swapped(n);
    r.next_forbid = MiniMove{t, opposite(m.dir)}.forbid();  // the hole can always go straight back
    return r;
  }
  // The run of pieces in front of the moved one (itself included) shifts one square on.
  int run[kMaxSquares], len = 0;
  for (int s = m.square; occupied(b, s); s = step(s, m.dir)) run[len++] = s;
  const int front = run[len - 1], beyond = step(front, m.dir);
  const bool removes = beyond < 0 || beyond == b.hole;
  for (int i = len - 1; i >= 0; --i) {
    const int t = step(run[i], m.dir);
    if (t >= 0 && t != b.hole) n.cell[t] = b.cell[run[i]];
  }
  n.cell[m.square] = kEmpty;
  if (removes) {
    if (count(n, kTheirs) < p_ - 1)
      r.outcome = MoveOutcome::kMoverWins;
    else if (count(n, kMine) < p_ - 1)
      r.outcome = MoveOutcome::kMoverLoses;
  } else if (len >= 2 && b.cell[front] == kTheirs) {
    // The front piece belongs to the next mover: pushing it straight back restores this board.
    r.next_forbid = MiniMove{beyond, opposite(m.dir)}.forbid();
  }
  r.next = swapped(n);
  return r;
}

bool Rules::is_checkmate(const Board& b) const {
  if (count(b, kTheirs) != p_ - 1) return false;
  for (int s = 0; s < squares(); ++s) {
    if (b.cell[s] != kMine) continue;
    for (int d = 0; d < 4; ++d) {
      int front = s;
      while (occupied(b, step(front, d))) front = step(front, d);
      const int beyond = step(front, d);
      if (b.cell[front] == kTheirs && (beyond < 0 || beyond == b.hole)) return true;
    }
  }
  return false;
}

std::vector<int> Rules::reachable_forbids(const Board& b) const {
  std::vector<int> out;
  if (!unmoves(b, kNoForbid).empty()) out.push_back(kNoForbid);  // some ply into b left no undo
  for (int s = 0; s < squares(); ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == b.hole) {
        const int t = step(s, d);
        if (t >= 0 && b.cell[t] == kEmpty)
          out.push_back(MiniMove{s, d}.forbid());  // it came from t
      } else if (b.cell[s] == kMine) {
        // A push-back: my piece at the front of a run whose back is an opponent piece (the pusher)
        // that came from the empty square behind it.
        int back = s;
        while (occupied(b, step(back, d))) back = step(back, d);
        const int origin = step(back, d);
        if (back != s && b.cell[back] == kTheirs && origin >= 0 && b.cell[origin] == kEmpty)
          out.push_back(MiniMove{s, d}.forbid());
      }
    }
  return out;
}

std::vector<UnMove> Rules::unmoves(const Board& b, int forbid) const {
  std::vector<UnMove> out;
  if (forbid != kNoForbid) {
    // The forbidden move recreates the previous board; the move that led here is its inverse.
    const int s = (forbid - 1) / 4, d = (forbid - 1) % 4;
    Board prev = b;
    if (s == b.hole) {
      const int from = step(s, d);
      prev.cell[s] = kEmpty, prev.cell[from] = kHole, prev.hole = from;
      out.push_back({swapped(prev), MiniMove{from, opposite(d)}});
      return out;
    }
    int back = s;
    while (occupied(b, step(back, d))) back = step(back, d);
    const int origin = step(back, d);
    for (int t = back;;
         t = step(t, opposite(d))) {  // the run s..back goes back one square towards origin
      prev.cell[step(t, d)] = b.cell[t];
      if (t == s) break;
    }
    prev.cell[s] = kEmpty;
    out.push_back({swapped(prev), MiniMove{origin, opposite(d)}});
    return out;
  }
  // No forbidden move: the last ply removed a piece, or pushed a run whose front piece is the
  // pusher's own (a single piece moving included). Hole moves always leave a forbidden move.
  const int theirs = count(b, kTheirs), mine = count(b, kMine);
  for (int origin = 0; origin < squares(); ++origin) {
    if (b.cell[origin] != kEmpty) continue;
    for (int d = 0; d < 4; ++d) {
      int run[kMaxSquares], len = 0;
      for (int t = step(origin, d); occupied(b, t); t = step(t, d)) run[len++] = t;
      if (len > 0 && b.cell[run[0]] != kTheirs) continue;  // the pusher is now at run[0]
      // Pieces run[0..n-1] shifted back by one square towards origin.
      auto shifted_back = [&](int n) {
        Board prev = b;
        int to = origin;
        for (int i = 0; i < n; ++i) prev.cell[to] = b.cell[run[i]], to = run[i];
        prev.cell[to] = kEmpty;
        return prev;
      };
      for (int n = 1; n <= len;
           ++n)  // no removal: the front (run[n-1]) was pushed onto an empty square
        if (b.cell[run[n - 1]] == kTheirs)
          out.push_back({swapped(shifted_back(n)), MiniMove{origin, d}});
      const int beyond = step(len ? run[len - 1] : origin, d);
      if (beyond >= 0 && beyond != b.hole) continue;
      // Removal at the front: the removed piece stood on the run's last square (origin if empty).
      for (Cell removed : {kTheirs, kMine}) {
        if (len == 0 && removed == kMine) continue;  // with no run, the removed piece is the pusher
        if ((removed == kTheirs ? theirs : mine) != p_ - 1) continue;  // that side had p pieces
        Board prev = shifted_back(len);
        prev.cell[len ? run[len - 1] : origin] = removed;
        out.push_back({swapped(prev), MiniMove{origin, d}});
      }
    }
  }
  return out;
}

StateKey Rules::key(const Board& b, int forbid) const {
  StateKey k = 0;
  for (int s = squares() - 1; s >= 0; --s) k = (k << 2) | b.cell[s];
  return (k << kCodeBits) | static_cast<StateKey>(forbid);
}

std::pair<Board, int> Rules::decode(StateKey k) const {
  Board b;
  const int forbid = static_cast<int>(k & ((1u << kCodeBits) - 1));
  k >>= kCodeBits;
  for (int s = 0; s < squares(); ++s, k >>= 2) {
    b.cell[s] = static_cast<std::uint8_t>(k & 3);
    if (b.cell[s] == kHole) b.hole = s;
  }
  return {b, forbid};
}

Board Rules::start() const {
  Board b;
  const int first = (w_ - p_) / 2;
  for (int i = 0; i < p_; ++i)
    b.cell[square_at(first + i, 0)] = kMine, b.cell[square_at(first + i, h_ - 1)] = kTheirs;
  b.hole = square_at((w_ - 1) / 2, (h_ - 1) / 2);
  b.cell[b.hole] = kHole;
  return b;
}

std::string Rules::square_name(int s) const {
  return std::string(1, static_cast<char>('a' + file_of(s))) + std::to_string(rank_of(s) + 1);
}

std::string Rules::move_name(MiniMove m) const { return square_name(m.square) + kDirLetter[m.dir]; }

std::string Rules::to_text(const Board& b, int forbid) const {
  std::string t;
  for (int r = 0; r < h_; ++r) {
    if (r) t += '-';
    for (int f = 0; f < w_; ++f) t += static_cast<char>('0' + b.cell[square_at(f, r)]);
  }
  if (forbid != kNoForbid) t += ":" + move_name(MiniMove{(forbid - 1) / 4, (forbid - 1) % 4});
  return t;
}

std::string Rules::diagram(const Board& b, int forbid) const {
  std::ostringstream os;
  os << "   ";
  for (int f = 0; f < w_; ++f) os << ' ' << static_cast<char>('a' + f);
  os << '\n';
  for (int r = 0; r < h_; ++r) {
    os << ' ' << r + 1 << ' ';
    for (int f = 0; f < w_; ++f) os << ' ' << ".xo#"[b.cell[square_at(f, r)]];
    os << '\n';
  }
  os << "x to move (" << count(b, kMine) << " pieces), o has " << count(b, kTheirs) << "; "
     << (forbid == kNoForbid
             ? "no forbidden move"
             : "forbidden: " + move_name(MiniMove{(forbid - 1) / 4, (forbid - 1) % 4}))
     << "\n"
     << to_text(b, forbid) << "\n";
  return os.str();
}

std::optional<std::pair<Board, int>> Rules::parse(std::string_view text, std::string* error,
                                                  bool published) const {
  auto fail = [&](const std::string& why) -> std::optional<std::pair<Board, int>> {
    if (error) *error = "bad " + variant() + " state '" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  const auto colon = text.find(':');
  const std::string_view board = text.substr(0, colon);
  std::string digits;
  const bool dashed = board.find('-') != std::string_view::npos;
  for (std::size_t i = 0; i < board.size(); ++i) {
    if (dashed && i % static_cast<std::size_t>(w_ + 1) == static_cast<std::size_t>(w_)) {
      if (board[i] != '-')
        return fail("expected '-' between ranks at character " + std::to_string(i + 1));
    } else {
      digits += board[i];
    }
  }
  const std::size_t want = static_cast<std::size_t>(squares());
  if (digits.size() != want || (dashed && board.size() != want + static_cast<std::size_t>(h_ - 1)))
    return fail("wrong length " + std::to_string(board.size()) + " (expected " +
                std::to_string(h_) + " ranks of " + std::to_string(w_) +
                " digits separated by '-', e.g. " + to_text(start(), kNoForbid) + ")");
  Board b;
  int holes = 0;
  for (int i = 0; i < squares(); ++i) {
    const int q = square_at(i % w_, i / w_);
    const char c = digits[static_cast<std::size_t>(i)];
    if (c < '0' || c > '3')
      return fail(std::string("bad digit '") + c + "' on " + square_name(q) +
                  " (use 0 empty, 1 side to move, 2 opponent, 3 hole)");
    b.cell[q] = static_cast<std::uint8_t>(c - '0');
    if (c == '3') b.hole = q, ++holes;
  }
  if (holes != 1) return fail(std::to_string(holes) + " holes (exactly one '3' is needed)");
  for (Cell who : {kMine, kTheirs}) {
    const int n = count(b, who);
    const std::string side = who == kMine ? "the side to move" : "the opponent";
    if (n <= p_ - 2)
      return fail("game already over: " + side + " has " + std::to_string(n) + " pieces left");
    if (n > p_)
      return fail(side + " has " + std::to_string(n) + " pieces (at most " + std::to_string(p_) +
                  ")");
  }
  const std::vector<int> codes = published ? published_forbids(b) : reachable_forbids(b);
  if (colon == std::string_view::npos) {
    if (!codes.empty() && codes.front() == kNoForbid) return std::pair{b, kNoForbid};
    return fail(
        "no previous ply can leave this board with nothing forbidden: give the forbidden "
        "move after ':'");
  }
  const std::string_view mv = text.substr(colon + 1);
  int file = mv.empty() ? -1 : mv[0] - 'a', rank = -1, dir = -1;
  if (mv.size() == 3) {
    rank = mv[1] - '1';
    dir = static_cast<int>(std::find(kDirLetter, kDirLetter + 4, mv[2]) - kDirLetter);
  }
  if (mv.size() != 3 || file < 0 || file >= w_ || rank < 0 || rank >= h_ || dir > 3)
    return fail("malformed forbidden move '" + std::string(mv) +
                "' (square and direction U/D/L/R, e.g. " + move_name(MiniMove{0, 1}) + ")");
  const MiniMove named{square_at(file, rank), dir};
  int code = named.forbid();
  if (published) {  // the move names the previous board's class: the first move reaching it
    const auto legal = legal_moves(b, kNoForbid);
    if (std::find(legal.begin(), legal.end(), named) == legal.end())
      return fail("forbidden move " + std::string(mv) + " is not a legal move here");
    code = published_forbid(b, play(b, named).next);
  }
  for (int c : codes)
    if (c == code) return std::pair{b, code};
  return fail("forbidden move " + std::string(mv) +
              " could not have been caused by the previous ply (only moving the hole back onto an "
              "empty square, or "
              "pushing back a run that ends in an opponent piece before an empty square, can be "
              "forbidden)");
}

}  // namespace zermelo::ostle::mini
