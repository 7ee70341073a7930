// The reference rules (see reference.hpp): loops over a grid, nothing clever.
#include "tests/ostle/reference.hpp"

#include <stdexcept>

namespace ostle_ref {

namespace {
const int kDf[4] = {0, 0, -1, 1};
const int kDr[4] = {-1, 1, 0, 0};
bool inside(int f, int r) { return f >= 0 && f < 5 && r >= 0 && r < 5; }
}  // namespace

int Board::count(char who) const {
  int n = 0;
  for (auto& col : grid)
    for (char c : col) n += c == who;
  return n;
}

Board Board::swapped() const {
  Board b = *this;
  for (auto& col : b.grid)
    for (char& c : col) c = c == 'x' ? 'o' : c == 'o' ? 'x' : c;
  return b;
}

Board from_text(const std::string& text) {
  Board b;
  int rank = 0, file = 0;
  for (char ch : text) {
    if (ch == '-') {
      ++rank, file = 0;
      continue;
    }
    b.grid[file][rank] = ch == '1' ? 'x' : ch == '2' ? 'o' : ch == '3' ? 'H' : '.';
    ++file;
  }
  return b;
}

std::string to_text(const Board& b) {
  std::string s;
  for (int r = 0; r < 5; ++r) {
    if (r) s += '-';
    for (int f = 0; f < 5; ++f) {
      char c = b.grid[f][r];
      s += c == 'x' ? '1' : c == 'o' ? '2' : c == 'H' ? '3' : '0';
    }
  }
  return s;
}

Played play(const Board& b, const Move& m) {
  Board n = b;
  const char what = b.grid[m.file][m.rank];
  if (what == 'H') {
    n.grid[m.file][m.rank] = '.';
    n.grid[m.file + kDf[m.dir]][m.rank + kDr[m.dir]] = 'H';
    return {n.swapped(), Result::kContinues};
  }
  if (what != 'x') throw std::logic_error("reference: not a piece of the mover");
  // Collect the line of pieces starting at the moved one.
  std::vector<std::pair<int, int>> chain;
  int f = m.file, r = m.rank;
  while (inside(f, r) && (b.grid[f][r] == 'x' || b.grid[f][r] == 'o')) {
    chain.push_back({f, r});
    f += kDf[m.dir], r += kDr[m.dir];
  }
  // Lift them all, then put each one step further unless that is off the board or the hole.
  std::vector<char> lifted;
  for (auto [cf, cr] : chain) lifted.push_back(n.grid[cf][cr]), n.grid[cf][cr] = '.';
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const int tf = chain[i].first + kDf[m.dir], tr = chain[i].second + kDr[m.dir];
    if (!inside(tf, tr) || b.grid[tf][tr] == 'H') continue;  // removed
    n.grid[tf][tr] = lifted[i];
  }
  Result res = Result::kContinues;
  if (n.count('o') <= 3)
    res = Result::kMoverWins;
  else if (n.count('x') <= 3)
    res = Result::kMoverLoses;
  return {n.swapped(), res};
}

std::vector<Move> legal_moves(const Board& b, const std::optional<Board>& two_plies_before) {
  std::vector<Move> out;
  for (int f = 0; f < 5; ++f)
    for (int r = 0; r < 5; ++r) {
      const char c = b.grid[f][r];
      if (c != 'x' && c != 'H') continue;
      for (int d = 0; d < 4; ++d) {
        if (c == 'H') {
          const int tf = f + kDf[d], tr = r + kDr[d];
          if (!inside(tf, tr) || b.grid[tf][tr] != '.') continue;
        }
        const Move m{f, r, d};
        if (two_plies_before && play(b, m).next == *two_plies_before) continue;
        out.push_back(m);
      }
    }
  return out;
}

bool is_checkmate(const Board& b, const std::optional<Board>& two_plies_before) {
  for (const Move& m : legal_moves(b, two_plies_before))
    if (play(b, m).result == Result::kMoverWins) return true;
  return false;
}

Board transform(const Board& b, int g) {
  Board n;
  for (int f = 0; f < 5; ++f)
    for (int r = 0; r < 5; ++r) {
      int x = f, y = r;
      for (int k = 0; k < (g & 3); ++k) {  // rotate by 90 degrees (g & 3) times
        const int nx = 4 - y, ny = x;
        x = nx, y = ny;
      }
      if (g & 4) x = 4 - x;  // then mirror
      n.grid[x][y] = b.grid[f][r];
    }
  return n;
}

bool equivalent(const Board& a, const Board& b) {
  for (int g = 0; g < 8; ++g)
    if (transform(a, g) == b) return true;
  return false;
}

}  // namespace ostle_ref
