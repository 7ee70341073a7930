// The card table of cards.md and the parser for card lists given on the command line.
#include "zermelo/games/onitama/cards.hpp"
#include "zermelo/util/text.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace zermelo::onitama {
namespace {

Card make(const char* name, bool red, std::vector<std::pair<int, int>> offsets) {
  std::sort(offsets.begin(), offsets.end());
  return Card{name, red, std::move(offsets)};
}

// Reads "(dx,dy)(dx,dy)..." with optional spaces; throws naming the text on any mistake.
std::vector<std::pair<int, int>> parse_offsets(std::string_view text, std::string_view whole) {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("bad card '" + std::string(whole) + "': " + why +
                                " (write a card name or offsets like (-1,0)(0,-1)(1,0))");
  };
  std::vector<std::pair<int, int>> out;
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  auto number = [&]() -> int {
    skip();
    bool neg = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) neg = text[i++] == '-';
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i])))
      fail("expected a number");
    int v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      v = v * 10 + (text[i++] - '0');
      if (v > 64) fail("offset too large");
    }
    skip();
    return neg ? -v : v;
  };
  skip();
  while (i < text.size()) {
    if (text[i] != '(') fail("expected '('");
    ++i;
    int dx = number();
    if (i >= text.size() || text[i] != ',') fail("expected ','");
    ++i;
    int dy = number();
    if (i >= text.size() || text[i] != ')') fail("expected ')'");
    ++i;
    if (dx == 0 && dy == 0) fail("offset (0,0) is not a move");
    out.emplace_back(dx, dy);
    skip();
  }
  if (out.empty()) fail("no offsets");
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) fail("an offset is repeated");
  return out;
}

}  // namespace

const std::vector<Card>& standard_cards() {
  static const std::vector<Card> cards = {
      make("Boar", true, {{-1, 0}, {0, -1}, {1, 0}}),
      make("Cobra", true, {{-1, 0}, {1, -1}, {1, 1}}),
      make("Dragon", true, {{-2, -1}, {2, -1}, {-1, 1}, {1, 1}}),
      make("Elephant", true, {{-1, -1}, {1, -1}, {-1, 0}, {1, 0}}),
      make("Frog", true, {{-2, 0}, {-1, -1}, {1, 1}}),
      make("Horse", true, {{-1, 0}, {0, -1}, {0, 1}}),
      make("Mantis", true, {{-1, -1}, {1, -1}, {0, 1}}),
      make("Rooster", true, {{-1, 0}, {-1, 1}, {1, 0}, {1, -1}}),
      make("Crab", false, {{-2, 0}, {0, -1}, {2, 0}}),
      make("Crane", false, {{0, -1}, {-1, 1}, {1, 1}}),
      make("Eel", false, {{-1, -1}, {-1, 1}, {1, 0}}),
      make("Goose", false, {{-1, -1}, {-1, 0}, {1, 0}, {1, 1}}),
      make("Monkey", false, {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}),
      make("Ox", false, {{0, -1}, {0, 1}, {1, 0}}),
      make("Rabbit", false, {{1, -1}, {-1, 1}, {2, 0}}),
      make("Tiger", false, {{0, -2}, {0, 1}}),
  };
  return cards;
}

Card parse_card(std::string_view text) {
  std::string_view t = trim(text);
  if (t.empty()) throw std::invalid_argument("empty card name");
  if (t.find('(') == std::string_view::npos) {
    for (const Card& c : standard_cards())
      if (lower(c.name) == lower(t)) return c;
    std::string known;
    for (const Card& c : standard_cards()) known += (known.empty() ? "" : ", ") + lower(c.name);
    throw std::invalid_argument("unknown card '" + std::string(t) + "' (known: " + known +
                                "; or give offsets like (-1,0)(0,-1)(1,0))");
  }
  Card c;
  c.name = "custom";
  std::string_view body = t;
  if (auto eq = body.find('='); eq != std::string_view::npos) {
    c.name = std::string(trim(body.substr(0, eq)));
    if (c.name.empty())
      throw std::invalid_argument("bad card '" + std::string(t) + "': empty name before '='");
    body = body.substr(eq + 1);
  }
  if (auto at = body.find('@'); at != std::string_view::npos) {
    std::string colour = lower(trim(body.substr(at + 1)));
    if (colour != "red" && colour != "blue")
      throw std::invalid_argument("bad card '" + std::string(t) +
                                  "': colour must be @red or @blue");
    c.red = colour == "red";
    body = body.substr(0, at);
  }
  c.offsets = parse_offsets(body, t);
  return c;
}

std::vector<Card> parse_deck(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (text[i] == ',' && depth == 0) {
      parts.push_back(text.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  parts.push_back(text.substr(begin));
  if (parts.size() != 1 && parts.size() != 5)
    throw std::invalid_argument("expected one card or five cards separated by commas, got " +
                                std::to_string(parts.size()) + " in '" + std::string(text) + "'");
  std::vector<Card> deck;
  for (auto p : parts) deck.push_back(parse_card(p));
  while (deck.size() < 5) deck.push_back(deck.front());
  return deck;
}

std::string describe(const Card& c) {
  std::string s = c.name + (c.red ? " (red):" : " (blue):");
  for (auto [dx, dy] : c.offsets) s += " (" + std::to_string(dx) + "," + std::to_string(dy) + ")";
  return s;
}

}  // namespace zermelo::onitama
