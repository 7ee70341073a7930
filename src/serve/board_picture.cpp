// Drawing a state from its diagram (board_picture.hpp).
#include "zermelo/serve/board_picture.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string_view>
#include <vector>

#include "zermelo/games/onitama/cards.hpp"
#include "zermelo/util/text.hpp"

namespace zermelo {
namespace {

constexpr int kCell = 56;    // a board square, in SVG units
constexpr int kMargin = 26;  // room for the coordinates
constexpr int kLine = 18;    // a caption line

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string escaped(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// An SVG document being written: the body first, the header once the size is known.
class Svg {
 public:
  std::ostringstream body;
  void text(int x, int y, std::string_view s, std::string_view extra = "") {
    body << "<text x=\"" << x << "\" y=\"" << y << "\" " << extra << ">" << escaped(s)
         << "</text>\n";
  }
  std::string done(int width, int height, std::string_view title) const {
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
       << "\" viewBox=\"0 0 " << width << ' ' << height << "\" font-family=\"sans-serif\" "
       << "font-size=\"13\">\n<title>" << escaped(title) << "</title>\n"
       << "<rect width=\"" << width << "\" height=\"" << height << "\" fill=\"#fbfaf6\"/>\n"
       << body.str() << "</svg>\n";
    return os.str();
  }
};

// How a diagram's letter is drawn on a square.
enum class Shape { kNone, kDisc, kMaster, kCross, kRing, kHole };
struct Piece {
  Shape shape = Shape::kNone;
  const char* fill = "none";
  const char* stroke = "#222";
};
using PieceOf = Piece (*)(char);

void draw_piece(Svg& svg, int x, int y, const Piece& p) {
  const int cx = x + kCell / 2, cy = y + kCell / 2;
  auto& b = svg.body;
  switch (p.shape) {
    case Shape::kNone:
      break;
    case Shape::kDisc:
      b << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"19\" fill=\"" << p.fill
        << "\" stroke=\"" << p.stroke << "\" stroke-width=\"2\"/>\n";
      break;
    case Shape::kMaster:
      b << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"23\" fill=\"" << p.fill
        << "\" stroke=\"" << p.stroke << "\" stroke-width=\"2\"/>\n"
        << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"11\" fill=\"none\" "
        << "stroke=\"#fff\" stroke-width=\"3\"/>\n";
      break;
    case Shape::kCross:
      b << "<path d=\"M" << cx - 16 << ' ' << cy - 16 << "L" << cx + 16 << ' ' << cy + 16 << "M"
        << cx + 16 << ' ' << cy - 16 << "L" << cx - 16 << ' ' << cy + 16 << "\" stroke=\""
        << p.stroke << "\" stroke-width=\"6\" stroke-linecap=\"round\"/>\n";
      break;
    case Shape::kRing:
      b << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"17\" fill=\"none\" stroke=\""
        << p.stroke << "\" stroke-width=\"6\"/>\n";
      break;
    case Shape::kHole:
      b << "<rect x=\"" << x + 4 << "\" y=\"" << y + 4 << "\" width=\"" << kCell - 8
        << "\" height=\"" << kCell - 8 << "\" rx=\"10\" fill=\"#1b1b1b\"/>\n";
      break;
  }
}

// The squares of a diagram: rows top to bottom as printed, each with its label.
struct Grid {
  std::vector<std::string> rows, row_labels;
  std::string columns;            // one letter a column, or empty
  std::vector<std::string> rest;  // the diagram's other lines
  std::size_t width() const { return rows.empty() ? 0 : rows[0].size(); }
};

// Rows written "<number> <cells>" (cells from `alphabet`, spaced or not) and a line of column
// letters; the grid is empty if the rows disagree in length.
Grid read_grid(const std::string& diagram, std::string_view alphabet) {
  Grid g;
  for (const std::string& line : lines_of(diagram)) {
    const std::string_view t = trim(line);
    std::size_t digits = 0;
    while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
    std::string cells;
    bool row = digits > 0 && digits < t.size() && t[digits] == ' ';
    for (std::size_t i = digits; row && i < t.size(); ++i)
      if (t[i] != ' ') {
        if (alphabet.find(t[i]) == std::string_view::npos) row = false;
        cells += t[i];
      }
    if (row && !cells.empty()) {
      g.rows.push_back(cells);
      g.row_labels.emplace_back(t.substr(0, digits));
      continue;
    }
    const bool letters = !t.empty() && std::all_of(t.begin(), t.end(), [](char ch) {
      return ch == ' ' || (ch >= 'a' && ch <= 'z');
    });
    if (letters && g.columns.empty()) {
      for (char ch : t)
        if (ch != ' ') g.columns += ch;
      continue;
    }
    if (!t.empty()) g.rest.emplace_back(t);
  }
  for (auto& r : g.rows)
    if (r.size() != g.width()) return {};
  if (!g.columns.empty() && g.columns.size() != g.width()) g.columns.clear();
  return g;
}

// The board: squares, coordinates, pieces; its top left corner at (x, y).
void draw_board(Svg& svg, const Grid& g, int x, int y, PieceOf piece_of) {
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    const int top = y + static_cast<int>(r) * kCell;
    svg.text(x - 16, top + kCell / 2 + 5, g.row_labels[r], "fill=\"#666\"");
    for (std::size_t c = 0; c < g.width(); ++c) {
      const int left = x + static_cast<int>(c) * kCell;
      const char* shade = (r + c) % 2 ? "#e9dfc8" : "#f4ecd8";
      svg.body << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << kCell
               << "\" height=\"" << kCell << "\" fill=\"" << shade << "\" stroke=\"#b8a98a\"/>\n";
      draw_piece(svg, left, top, piece_of(g.rows[r][c]));
    }
  }
  for (std::size_t c = 0; c < g.columns.size(); ++c)
    svg.text(x + static_cast<int>(c) * kCell + kCell / 2 - 4, y - 8, std::string(1, g.columns[c]),
             "fill=\"#666\"");
}

// Lines of text under a picture, from y on; returns the y below them.
int captions(Svg& svg, const std::vector<std::string>& lines, int x, int y) {
  for (auto& l : lines) svg.text(x, y += kLine, l);
  return y + 8;
}

std::vector<std::string> lines_with(const std::vector<std::string>& lines, std::string_view what) {
  std::vector<std::string> out;
  for (auto& l : lines)
    if (l.find(what) != std::string::npos) out.push_back(l);
  return out;
}

int caption_width(const std::vector<std::string>& lines) {
  std::size_t most = 0;
  for (auto& l : lines) most = std::max(most, l.size());
  return static_cast<int>(most) * 7 + 2 * kMargin;
}

std::string grid_picture(const Game& game, const Grid& g, PieceOf piece_of,
                         const std::vector<std::string>& under) {
  Svg svg;
  draw_board(svg, g, kMargin, kMargin, piece_of);
  const int board_h = kMargin + static_cast<int>(g.rows.size()) * kCell;
  const int h = captions(svg, under, 8, board_h);
  const int w = std::max(2 * kMargin + static_cast<int>(g.width()) * kCell, caption_width(under));
  return svg.done(w, h, game.name() + " " + game.variant());
}

Piece ttt_piece(char ch) {
  if (ch == 'X') return {Shape::kCross, "none", "#1f5fbf"};
  if (ch == 'O') return {Shape::kRing, "none", "#c0392b"};
  return {};
}
Piece onitama_piece(char ch) {
  switch (ch) {
    case 'r':
      return {Shape::kDisc, "#c0392b", "#7b241c"};
    case 'R':
      return {Shape::kMaster, "#c0392b", "#7b241c"};
    case 'b':
      return {Shape::kDisc, "#1f5fbf", "#133a73"};
    case 'B':
      return {Shape::kMaster, "#1f5fbf", "#133a73"};
    default:
      return {};
  }
}
Piece ostle_piece(char ch) {
  if (ch == 'x') return {Shape::kDisc, "#2b2b2b", "#000"};
  if (ch == 'o') return {Shape::kDisc, "#ffffff", "#333"};
  if (ch == '#') return {Shape::kHole};
  return {};
}
Piece breakthrough_piece(char ch) {
  if (ch == 'X') return {Shape::kDisc, "#2b2b2b", "#000"};
  if (ch == 'O') return {Shape::kDisc, "#ffffff", "#333"};
  return {};
}

// Tic-tac-toe prints three rows of three cells and "X to move".
std::string tictactoe_picture(const Game& game, const std::string& diagram) {
  const auto lines = lines_of(diagram);
  Grid g;
  for (std::size_t r = 0; r < 3 && r < lines.size(); ++r) {
    g.rows.push_back(lines[r]);
    g.row_labels.push_back(std::to_string(r + 1));
  }
  g.columns = "abc";
  if (g.rows.size() != 3) return {};
  for (auto& r : g.rows)
    if (r.size() != 3 || r.find_first_not_of(".XO") != std::string::npos) return {};
  return grid_picture(game, g, ttt_piece, lines_with(lines, "to move"));
}

// Nim prints "heap i: |||" a heap.
std::string nim_picture(const Game& game, const std::string& diagram) {
  std::vector<std::size_t> heaps;
  for (auto& line : lines_of(diagram)) {
    const auto colon = line.find(':');
    if (line.rfind("heap ", 0) != 0 || colon == std::string::npos) return {};
    heaps.push_back(static_cast<std::size_t>(std::count(line.begin() + colon, line.end(), '|')));
  }
  if (heaps.empty()) return {};
  Svg svg;
  constexpr int kStick = 14, kRow = 52, kLeft = 70;
  std::size_t most = 1;
  for (std::size_t i = 0; i < heaps.size(); ++i) {
    const int top = 12 + static_cast<int>(i) * kRow;
    most = std::max(most, heaps[i]);
    svg.text(10, top + 28, "heap " + std::to_string(i), "fill=\"#666\"");
    for (std::size_t s = 0; s < heaps[i]; ++s)
      svg.body << "<rect x=\"" << kLeft + static_cast<int>(s) * kStick << "\" y=\"" << top + 4
               << "\" width=\"8\" height=\"38\" rx=\"3\" fill=\"#a0652b\" stroke=\"#5d3a17\"/>\n";
    svg.text(kLeft + static_cast<int>(heaps[i]) * kStick + 6, top + 28, std::to_string(heaps[i]),
             "fill=\"#666\"");
  }
  const int w = kLeft + static_cast<int>(most) * kStick + 40;
  return svg.done(std::max(w, 160), 20 + static_cast<int>(heaps.size()) * kRow,
                  game.name() + " " + game.variant());
}

// A card as printed: the holder in the middle, forward up, its moves marked.
void draw_card(Svg& svg, int x, int y, const std::string& name, const char* colour) {
  constexpr int kSquare = 11;
  svg.body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << 5 * kSquare + 10
           << "\" height=\"" << 5 * kSquare + 26 << "\" rx=\"5\" fill=\"#fff\" stroke=\"" << colour
           << "\" stroke-width=\"2\"/>\n";
  svg.text(x + 5, y + 15, name, "font-size=\"11\"");
  std::vector<std::pair<int, int>> offsets;
  try {
    offsets = onitama::parse_card(name).offsets;
  } catch (const std::exception&) {
    // A card written as offsets on the command line keeps its name only.
  }
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      const bool move =
          std::find(offsets.begin(), offsets.end(), std::pair{dx, dy}) != offsets.end();
      const char* fill = dx == 0 && dy == 0 ? "#444" : move ? colour : "#f1f1f1";
      svg.body << "<rect x=\"" << x + 5 + (dx + 2) * kSquare << "\" y=\""
               << y + 21 + (dy + 2) * kSquare << "\" width=\"" << kSquare - 1 << "\" height=\""
               << kSquare - 1 << "\" fill=\"" << fill << "\"/>\n";
    }
}

// Onitama prints its header, the board with coordinates, then "red: A, B", "blue: C, D" and
// "aside: E".
std::string onitama_picture(const Game& game, const std::string& diagram) {
  Grid g = read_grid(diagram, ".rRbB");
  if (g.rows.empty()) return {};
  std::vector<std::pair<std::string, std::vector<std::string>>> hands;
  std::vector<std::string> under;
  for (auto& l : g.rest) {
    const auto colon = l.find(':');
    const std::string who = colon == std::string::npos ? "" : l.substr(0, colon);
    if (who == "red" || who == "blue" || who == "aside") {
      std::vector<std::string> cards;
      std::istringstream in(l.substr(colon + 1));
      for (std::string c; std::getline(in, c, ',');) cards.emplace_back(trim(c));
      hands.emplace_back(who, cards);
    } else {
      under.push_back(l);
    }
  }
  Svg svg;
  draw_board(svg, g, kMargin, kMargin, onitama_piece);
  int y = captions(svg, under, 8, kMargin + static_cast<int>(g.rows.size()) * kCell);
  int x = 8, widest = 0;
  for (auto& [who, cards] : hands) {
    svg.text(x, y + 14, who, "fill=\"#666\"");
    const char* colour = who == "red" ? "#c0392b" : who == "blue" ? "#1f5fbf" : "#777";
    for (std::size_t i = 0; i < cards.size(); ++i)
      draw_card(svg, x + static_cast<int>(i) * 70, y + 20, cards[i], colour);
    x += static_cast<int>(cards.size()) * 70 + 14;
    widest = std::max(widest, x);
  }
  const int h = hands.empty() ? y : y + 20 + 5 * 11 + 34;
  const int w =
      std::max({2 * kMargin + static_cast<int>(g.width()) * kCell, caption_width(under), widest});
  return svg.done(w, h, game.name() + " " + game.variant());
}

// Ostle and ostle-mini print coordinates, the board ('#' the hole), "x to move ...; forbidden:
// MOVE", the state's text form and its key.
std::string ostle_picture(const Game& game, const std::string& diagram) {
  Grid g = read_grid(diagram, ".xo#");
  if (g.rows.empty()) return {};
  return grid_picture(game, g, ostle_piece, lines_with(g.rest, "to move"));
}

std::string breakthrough_picture(const Game& game, const std::string& diagram) {
  Grid g = read_grid(diagram, ".XO");
  if (g.rows.empty()) return {};
  return grid_picture(game, g, breakthrough_piece, lines_with(g.rest, "to move"));
}

// Any other game: its diagram in monospace.
std::string text_picture(const Game& game, const std::string& diagram) {
  const auto lines = lines_of(diagram);
  Svg svg;
  std::size_t most = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    svg.text(10, 20 + static_cast<int>(i) * kLine, lines[i],
             "font-family=\"monospace\" xml:space=\"preserve\"");
    most = std::max(most, lines[i].size());
  }
  return svg.done(20 + static_cast<int>(most) * 8, 16 + static_cast<int>(lines.size()) * kLine,
                  game.name() + " " + game.variant());
}

}  // namespace

std::string board_svg(const Game& game, StateKey key) {
  const std::string diagram = game.render(key);
  const std::string name = game.name();
  std::string svg;
  if (name == "tictactoe")
    svg = tictactoe_picture(game, diagram);
  else if (name == "nim")
    svg = nim_picture(game, diagram);
  else if (name == "onitama")
    svg = onitama_picture(game, diagram);
  else if (name == "ostle" || name == "ostle-mini")
    svg = ostle_picture(game, diagram);
  else if (name == "breakthrough")
    svg = breakthrough_picture(game, diagram);
  return svg.empty() ? text_picture(game, diagram) : svg;
}

std::string side_to_move(const std::string& diagram) {
  for (const std::string& line : lines_of(diagram)) {
    const auto at = line.find(" to move");
    if (at == std::string::npos) continue;
    const auto comma = line.rfind(", ", at);
    const std::size_t from = comma == std::string::npos ? 0 : comma + 2;
    return std::string(trim(std::string_view(line).substr(from, at - from)));
  }
  return "";
}

}  // namespace zermelo
