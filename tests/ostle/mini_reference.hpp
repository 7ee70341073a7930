// A slow, literal reference for small-board Ostle, written apart from the module: a W x H grid of
// characters, the whole previous board instead of a forbidden-move code (a move is illegal when
// it recreates the board of two plies before), pushes done by lifting the run and putting each
// piece down one square on. The tests play random games with it beside the module.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ostle_mini_ref {

// grid[file * h + rank]: 'x' side to move, 'o' opponent, 'H' hole, '.' empty.
struct Grid {
  int w = 0, h = 0;
  std::string cells;
  bool operator==(const Grid&) const = default;

  bool inside(int f, int r) const { return f >= 0 && f < w && r >= 0 && r < h; }
  char at(int f, int r) const { return cells[static_cast<std::size_t>(f * h + r)]; }
  char& at(int f, int r) { return cells[static_cast<std::size_t>(f * h + r)]; }
  int count(char who) const {
    int n = 0;
    for (char c : cells) n += c == who;
    return n;
  }
  Grid swapped() const {
    Grid g = *this;
    for (char& c : g.cells) c = c == 'x' ? 'o' : c == 'o' ? 'x' : c;
    return g;
  }
};

// Text form as in the module: ranks (rank 1 first) of files a.., '1' x, '2' o, '3' hole, '0' empty.
inline Grid from_text(int w, int h, const std::string& text) {
  Grid g{w, h, std::string(static_cast<std::size_t>(w * h), '.')};
  int i = 0;
  for (char c : text) {
    if (c == '-') continue;
    g.at(i % w, i / w) = c == '1' ? 'x' : c == '2' ? 'o' : c == '3' ? 'H' : '.';
    ++i;
  }
  return g;
}

inline std::string to_text(const Grid& g) {
  std::string t;
  for (int r = 0; r < g.h; ++r) {
    if (r) t += '-';
    for (int f = 0; f < g.w; ++f) {
      const char c = g.at(f, r);
      t += c == 'x' ? '1' : c == 'o' ? '2' : c == 'H' ? '3' : '0';
    }
  }
  return t;
}

// The grid's image under symmetry g (0..7 on square grids, 0..3 otherwise): transpose first
// (bit 4), then mirror the files (bit 1), then the ranks (bit 2).
inline Grid image(const Grid& a, int g) {
  Grid t = a;
  for (int f = 0; f < a.w; ++f)
    for (int r = 0; r < a.h; ++r) {
      int tf = f, tr = r;
      if (g & 4) std::swap(tf, tr);
      if (g & 1) tf = a.w - 1 - tf;
      if (g & 2) tr = a.h - 1 - tr;
      t.at(tf, tr) = a.at(f, r);
    }
  return t;
}
inline int symmetries(const Grid& a) { return a.w == a.h ? 8 : 4; }

// A symmetry class: the smallest text of the grid's images.
inline std::string class_of(const Grid& a) {
  std::string best = to_text(a);
  for (int g = 1; g < symmetries(a); ++g) best = std::min(best, to_text(image(a, g)));
  return best;
}

// Every image of a grid (itself first): b is in a's class exactly when it is one of them, a test
// that needs a's images once rather than every candidate's class.
inline std::vector<Grid> images(const Grid& a) {
  std::vector<Grid> out;
  for (int g = 0; g < symmetries(a); ++g) out.push_back(image(a, g));
  return out;
}
inline bool one_of(const Grid& b, const std::vector<Grid>& grids) {
  return std::find(grids.begin(), grids.end(), b) != grids.end();
}

struct Move {
  int file, rank, dir;  // dir 0 U (rank-1), 1 D (rank+1), 2 L (file-1), 3 R (file+1)
  bool operator==(const Move&) const = default;
};
// A move as the published solver writes it: its square and direction, "c2D".
inline std::string move_text(const Move& m) {
  return std::string(1, static_cast<char>('a' + m.file)) + std::to_string(m.rank + 1) +
         "UDLR"[m.dir];
}
inline const int kDf[4] = {0, 0, -1, 1};
inline const int kDr[4] = {-1, 1, 0, 0};

enum class Result { kContinues, kMoverWins, kMoverLoses };
struct Played {
  Grid next;  // from the next mover's point of view
  Result result;
};

// `lose_at`: a side left with this many pieces has lost.
inline Played play(const Grid& g, const Move& m, int lose_at) {
  Grid n = g;
  const int tf = m.file + kDf[m.dir], tr = m.rank + kDr[m.dir];
  if (g.at(m.file, m.rank) == 'H') {
    n.at(m.file, m.rank) = '.';
    n.at(tf, tr) = 'H';
    return {n.swapped(), Result::kContinues};
  }
  std::vector<std::pair<int, int>> chain;
  for (int f = m.file, r = m.rank; g.inside(f, r) && (g.at(f, r) == 'x' || g.at(f, r) == 'o');
       f += kDf[m.dir], r += kDr[m.dir])
    chain.push_back({f, r});
  for (auto [f, r] : chain) n.at(f, r) = '.';
  for (auto [f, r] : chain) {
    const int nf = f + kDf[m.dir], nr = r + kDr[m.dir];
    if (g.inside(nf, nr) && g.at(nf, nr) != 'H') n.at(nf, nr) = g.at(f, r);
  }
  Result res = Result::kContinues;
  if (n.count('o') <= lose_at)
    res = Result::kMoverWins;
  else if (n.count('x') <= lose_at)
    res = Result::kMoverLoses;
  return {n.swapped(), res};
}

// Legal moves by square (file-major: a1, a2, ...), then U D L R, without a move recreating
// `two_plies_before` (the board before the last ply, from the next mover's point of view).
inline std::vector<Move> legal_moves(const Grid& g, const std::optional<Grid>& two_plies_before,
                                     int lose_at) {
  std::vector<Move> out;
  for (int f = 0; f < g.w; ++f)
    for (int r = 0; r < g.h; ++r) {
      const char c = g.at(f, r);
      if (c != 'x' && c != 'H') continue;
      for (int d = 0; d < 4; ++d) {
        if (c == 'H' && (!g.inside(f + kDf[d], r + kDr[d]) || g.at(f + kDf[d], r + kDr[d]) != '.'))
          continue;
        const Move m{f, r, d};
        if (two_plies_before && play(g, m, lose_at).next == *two_plies_before) continue;
        out.push_back(m);
      }
    }
  return out;
}

inline bool is_checkmate(const Grid& g, const std::optional<Grid>& two_plies_before, int lose_at) {
  for (const Move& m : legal_moves(g, two_plies_before, lose_at))
    if (play(g, m, lose_at).result == Result::kMoverWins) return true;
  return false;
}

// Every board of a variant (one hole, p-1 or p pieces a side), placing each cell in turn.
inline void place_cells(Grid& g, std::size_t cell, int holes, int mine, int theirs, int p,
                        std::vector<Grid>& out) {
  if (cell == g.cells.size()) {
    if (holes == 1 && mine >= p - 1 && theirs >= p - 1) out.push_back(g);
    return;
  }
  for (char c : {'.', 'x', 'o', 'H'}) {
    if ((c == 'H' && holes) || (c == 'x' && mine == p) || (c == 'o' && theirs == p)) continue;
    g.cells[cell] = c;
    place_cells(g, cell + 1, holes + (c == 'H'), mine + (c == 'x'), theirs + (c == 'o'), p, out);
  }
  g.cells[cell] = '.';
}
inline std::vector<Grid> all_grids(int w, int h, int p) {
  Grid blank{w, h, std::string(static_cast<std::size_t>(w * h), '.')};
  std::vector<Grid> out;
  place_cells(blank, 0, 0, 0, 0, p, out);
  return out;
}

}  // namespace ostle_mini_ref
