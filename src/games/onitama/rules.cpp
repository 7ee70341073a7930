// Onitama rules: board geometry, card distributions, the state key, symmetry, text in and out.
#include "zermelo/games/onitama/rules.hpp"
#include "zermelo/util/text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

namespace zermelo::onitama {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

// a * b, or 0 when it does not fit 64 bits.
std::uint64_t mul_checked(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? 0 : r;
}

const char* kPlayerName[2] = {"Red", "Blue"};

}  // namespace

std::pair<int, int> Rules::parse_board(std::string_view text) {
  auto t = trim(text);
  auto x = t.find_first_of("xX×");
  auto fail = [&] {
    throw std::invalid_argument("onitama: bad board '" + std::string(text) +
                                "': write WIDTHxHEIGHT, e.g. 3x4");
  };
  if (x == std::string_view::npos) fail();
  auto num = [&](std::string_view s) {
    if (s.empty() || s.size() > 3) fail();
    int v = 0;
    for (char ch : s) {
      if (!std::isdigit(static_cast<unsigned char>(ch))) fail();
      v = v * 10 + (ch - '0');
    }
    return v;
  };
  return {num(t.substr(0, x)), num(t.substr(x + 1))};
}

Rules Rules::from_options(const std::vector<std::string>& options) {
  if (options.empty())
    throw std::invalid_argument("onitama: give a board size, e.g. {\"3x4\", \"boar\"}");
  if (options.size() > 2 && options.size() != 6)
    throw std::invalid_argument("onitama: options are a board and a card list (one or five cards)");
  auto [w, h] = parse_board(options[0]);
  std::string cards = "boar";
  if (options.size() == 2) cards = options[1];
  if (options.size() == 6) {
    cards.clear();
    for (std::size_t i = 1; i < 6; ++i) cards += (i > 1 ? "," : "") + options[i];
  }
  return Rules(w, h, parse_deck(cards));
}

Rules::Rules(int width, int height, std::vector<Card> deck)
    : n_(width), m_(height), deck_(std::move(deck)) {
  if (n_ < 1 || m_ < 2)
    throw std::invalid_argument("onitama: bad board " + std::to_string(n_) + "x" +
                                std::to_string(m_) + ": need width >= 1 and height >= 2");
  if (n_ * m_ > 63)
    throw std::invalid_argument("onitama: board " + board_name() + " has " +
                                std::to_string(n_ * m_) + " cells; at most 63 are supported");
  if (deck_.size() != 5) throw std::invalid_argument("onitama needs exactly five cards");
  cells_ = n_ * m_;
  // 0-based columns: Red's arch at ⌊(n+1)/2⌋, Blue's at ⌈(n+1)/2⌉ (1-based), rows 1 and m.
  temple_[kRed] = (n_ + 1) / 2 - 1;
  temple_[kBlue] = (m_ - 1) * n_ + (n_ + 2) / 2 - 1;

  // Card types: cards with equal offsets are one type.
  std::vector<int> slot_type(5);
  for (int i = 0; i < 5; ++i) {
    int t = -1;
    for (std::size_t j = 0; j < types_.size(); ++j)
      if (types_[j].same_moves(deck_[i])) t = static_cast<int>(j);
    if (t < 0) {
      t = static_cast<int>(types_.size());
      types_.push_back(deck_[i]);
    }
    slot_type[i] = t;
  }

  // Card distributions: every way to deal the five cards, up to identical types.
  auto sig = [](int r0, int r1, int b0, int b1, int a) {
    return std::array<int, 5>{std::min(r0, r1), std::max(r0, r1), std::min(b0, b1),
                              std::max(b0, b1), a};
  };
  for (int a = 0; a < 5; ++a)
    for (int r0 = 0; r0 < 5; ++r0)
      for (int r1 = r0 + 1; r1 < 5; ++r1) {
        if (r0 == a || r1 == a) continue;
        std::vector<int> blue;
        for (int i = 0; i < 5; ++i)
          if (i != a && i != r0 && i != r1) blue.push_back(i);
        auto s =
            sig(slot_type[r0], slot_type[r1], slot_type[blue[0]], slot_type[blue[1]], slot_type[a]);
        if (std::find(signatures_.begin(), signatures_.end(), s) == signatures_.end())
          signatures_.push_back(s);
      }
  std::sort(signatures_.begin(), signatures_.end());
  dists_.resize(signatures_.size());
  for (std::size_t i = 0; i < signatures_.size(); ++i) {
    const auto& s = signatures_[i];
    Dist& d = dists_[i];
    d.hand[kRed][0] = s[0], d.hand[kRed][1] = s[1], d.hand[kBlue][0] = s[2],
    d.hand[kBlue][1] = s[3];
    d.aside = s[4];
    for (int p = 0; p < 2; ++p) {
      d.n_distinct[p] = d.hand[p][0] == d.hand[p][1] ? 1 : 2;
      for (int h = 0; h < d.n_distinct[p]; ++h) {
        const int given = d.hand[p][h], kept = d.hand[p][1 - h];
        d.distinct[p][h] = given;
        // After giving `given` away: hand {kept, aside}, aside `given`. Swapping a hand card
        // with the set-aside card is its own inverse, so the same table undoes a move.
        d.after[p][h] =
            find_dist(p == kRed ? sig(kept, d.aside, d.hand[kBlue][0], d.hand[kBlue][1], given)
                                : sig(d.hand[kRed][0], d.hand[kRed][1], kept, d.aside, given));
      }
    }
    d.swapped = find_dist(sig(s[2], s[3], s[0], s[1], s[4]));
  }
  start_dist_ =
      find_dist(sig(slot_type[0], slot_type[1], slot_type[2], slot_type[3], slot_type[4]));
  start_player_ = deck_[4].red ? kRed : kBlue;

  // Move tables. Blue (bottom) applies a card's offsets as they are; Red flips both signs.
  for (int p = 0; p < 2; ++p) {
    moves_[p].assign(types_.size() * cells_, 0);
    origins_[p].assign(types_.size() * cells_, 0);
    for (std::size_t t = 0; t < types_.size(); ++t)
      for (int c = 0; c < cells_; ++c)
        for (auto [dx, dy] : types_[t].offsets) {
          const int x = c % n_ + (p == kBlue ? dx : -dx), y = c / n_ + (p == kBlue ? dy : -dy);
          if (x < 0 || x >= n_ || y < 0 || y >= m_) continue;
          const int to = y * n_ + x;
          moves_[p][t * cells_ + c] |= std::uint64_t{1} << to;
          origins_[p][t * cells_ + to] |= std::uint64_t{1} << c;
        }
  }

  // Key space: player × distributions × masters² × (student sets)².
  for (int i = 0; i <= 64; ++i) {
    binom_[i][0] = 1;
    for (int j = 1; j <= i; ++j)
      binom_[i][j] = binom_[i - 1][j - 1] + (j <= i - 1 ? binom_[i - 1][j] : 0);
  }
  for (int k = 0; k < n_; ++k) {
    size_offset_.push_back(student_sets_);
    student_sets_ += k <= cells_ ? binom_[cells_][k] : 0;
  }
  size_offset_.push_back(student_sets_);
  std::uint64_t ks = 2 * dists_.size();
  for (std::uint64_t f :
       {std::uint64_t(cells_ + 1), std::uint64_t(cells_ + 1), student_sets_, student_sets_}) {
    ks = mul_checked(ks, f);
    if (ks == 0)
      throw std::invalid_argument("board " + board_name() +
                                  " is too large: its states do not fit a 64-bit key");
  }
  key_space_ = ks;
  // Decoding is the hot path of every solver: tabulate student sets when there are few.
  if (student_sets_ <= (std::uint64_t{1} << 20)) {
    std::vector<std::uint64_t> table(student_sets_);
    for (std::uint64_t r = 0; r < student_sets_; ++r) table[r] = unrank_students(r);
    unrank_table_ = std::move(table);
  }
}

std::string Rules::deck_name() const {
  bool all_same = types_.size() == 1;
  if (all_same) return lower(deck_[0].name);
  std::string s;
  for (const Card& c : deck_) s += (s.empty() ? "" : ",") + lower(c.name);
  return s;
}

int Rules::find_dist(std::array<int, 5> signature) const {
  auto it = std::lower_bound(signatures_.begin(), signatures_.end(), signature);
  if (it == signatures_.end() || *it != signature) return -1;
  return static_cast<int>(it - signatures_.begin());
}

std::uint64_t Rules::rank_students(std::uint64_t mask) const {
  const int k = std::popcount(mask);
  std::uint64_t r = size_offset_[k];
  int i = 1;
  for (; mask; mask &= mask - 1, ++i) r += binom_[std::countr_zero(mask)][i];
  return r;
}

std::uint64_t Rules::unrank_students(std::uint64_t rank) const {
  if (!unrank_table_.empty()) return unrank_table_[rank];
  int k = 0;
  while (rank >= size_offset_[k + 1]) ++k;
  rank -= size_offset_[k];
  std::uint64_t mask = 0;
  int c = cells_ - 1;
  for (int i = k; i >= 1; --i) {
    while (binom_[c][i] > rank) --c;
    rank -= binom_[c][i];
    mask |= std::uint64_t{1} << c;
    --c;
  }
  return mask;
}

std::pair<std::uint64_t, std::uint64_t> Rules::student_groups(int red, int blue) const {
  const auto mm = static_cast<std::uint64_t>(cells_ + 1);
  const auto r = static_cast<std::size_t>(red), b = static_cast<std::size_t>(blue);
  const std::uint64_t first = size_offset_[b] * student_sets_ + size_offset_[r];
  const std::uint64_t last = (size_offset_[b + 1] - 1) * student_sets_ + size_offset_[r + 1] - 1;
  return {first * mm, (last + 1) * mm};
}

Key Rules::encode(const Position& p) const {
  const std::uint64_t mm = static_cast<std::uint64_t>(cells_ + 1);
  Key k = rank_students(p.students[kBlue]);
  k = k * student_sets_ + rank_students(p.students[kRed]);
  k = k * mm + static_cast<std::uint64_t>(p.master[kBlue]);
  k = k * mm + static_cast<std::uint64_t>(p.master[kRed]);
  k = k * dists_.size() + static_cast<std::uint64_t>(p.dist);
  return k * 2 + static_cast<std::uint64_t>(p.player);
}

Position Rules::decode(Key k) const {
  const std::uint64_t mm = static_cast<std::uint64_t>(cells_ + 1);
  Position p;
  p.player = static_cast<int>(k % 2), k /= 2;
  p.dist = static_cast<int>(k % dists_.size()), k /= dists_.size();
  p.master[kRed] = static_cast<int>(k % mm), k /= mm;
  p.master[kBlue] = static_cast<int>(k % mm), k /= mm;
  p.students[kRed] = unrank_students(k % student_sets_);
  p.students[kBlue] = unrank_students(k / student_sets_);
  return p;
}

Position Rules::start_position() const {
  Position p;
  p.player = start_player_;
  p.dist = start_dist_;
  p.master[kRed] = temple_[kRed];
  p.master[kBlue] = temple_[kBlue];
  const std::uint64_t row = (std::uint64_t{1} << n_) - 1;
  p.students[kRed] = row & ~(std::uint64_t{1} << temple_[kRed]);
  p.students[kBlue] = (row << (cells_ - n_)) & ~(std::uint64_t{1} << temple_[kBlue]);
  return p;
}

bool Rules::has_move(const Position& p) const {
  const int me = p.player;
  if (p.master[me] == cells_) return false;
  const Dist& d = dists_[p.dist];
  const std::uint64_t own = p.students[me] | (std::uint64_t{1} << p.master[me]);
  for (int h = 0; h < d.n_distinct[me]; ++h)
    for (std::uint64_t pieces = own; pieces; pieces &= pieces - 1)
      if (moves(me, d.distinct[me][h], std::countr_zero(pieces)) & ~own) return true;
  return false;
}

bool Rules::is_legal(const Position& p) const {
  if (p.player != kRed && p.player != kBlue) return false;
  if (p.dist < 0 || p.dist >= distributions()) return false;
  const std::uint64_t board = (std::uint64_t{1} << cells_) - 1;
  std::uint64_t seen = 0;
  for (int c = 0; c < 2; ++c) {
    if ((p.students[c] & ~board) || std::popcount(p.students[c]) > n_ - 1 || (p.students[c] & seen))
      return false;
    seen |= p.students[c];
  }
  for (int c = 0; c < 2; ++c) {
    if (p.master[c] < 0 || p.master[c] > cells_) return false;
    if (p.master[c] == cells_) continue;
    const std::uint64_t bit = std::uint64_t{1} << p.master[c];
    if (seen & bit) return false;
    seen |= bit;
  }
  const int cur = p.player, just_moved = 1 - cur;
  return p.master[just_moved] != cells_ && p.master[cur] != temple_[just_moved];
}

std::uint64_t Rules::count_legal(int red, int blue) const {
  if (red < 0 || blue < 0 || red >= n_ || blue >= n_) return 0;
  std::uint64_t total = 0;
  for (int mr = 0; mr <= cells_; ++mr)
    for (int mb = 0; mb <= cells_; ++mb) {
      if (mr == mb) continue;  // also excludes both captured
      const int master[2] = {mr, mb};
      int ok = 0;
      for (int player = 0; player < 2; ++player)
        ok += master[1 - player] != cells_ && master[player] != temple_[1 - player];
      const int free = cells_ - (mr < cells_) - (mb < cells_);
      if (red + blue > free) continue;
      total += static_cast<std::uint64_t>(ok) * binom_[free][red] * binom_[free - red][blue];
    }
  return total * dists_.size();
}

int Rules::count_children(const Position& p) const {
  if (is_terminal(p)) return 0;
  const int me = p.player;
  const Dist& d = dists_[p.dist];
  const std::uint64_t own = p.students[me] | (std::uint64_t{1} << p.master[me]);
  int n = 0;
  for (int h = 0; h < d.n_distinct[me]; ++h)
    for (std::uint64_t pieces = own; pieces; pieces &= pieces - 1)
      n += std::popcount(moves(me, d.distinct[me][h], std::countr_zero(pieces)) & ~own);
  return n > 0 ? n : d.n_distinct[me];
}

std::uint64_t Rules::rotate(std::uint64_t mask) const {
  // Cell c goes to cells-1-c: reverse all 64 bits, then drop the unused top.
  std::uint64_t r = mask;
  r = ((r >> 1) & 0x5555555555555555ull) | ((r & 0x5555555555555555ull) << 1);
  r = ((r >> 2) & 0x3333333333333333ull) | ((r & 0x3333333333333333ull) << 2);
  r = ((r >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((r & 0x0F0F0F0F0F0F0F0Full) << 4);
  r = __builtin_bswap64(r);
  return r >> (64 - cells_);
}

Position Rules::swapped(const Position& p) const {
  Position s;
  s.player = 1 - p.player;
  s.dist = dists_[p.dist].swapped;
  for (int c = 0; c < 2; ++c) {
    const int m = p.master[1 - c];
    s.master[c] = m == cells_ ? cells_ : cells_ - 1 - m;
    s.students[c] = rotate(p.students[1 - c]);
  }
  return s;
}

bool Rules::is_folded(const Position& p) const {
  const int blue = std::popcount(p.students[kBlue]), red = std::popcount(p.students[kRed]);
  if (blue != red) return blue < red;  // the twin's Blue students are p's Red ones, turned
  // Same size: the sets' colex ranks compare as the sets do at the highest cell where they differ.
  const std::uint64_t mine = p.students[kBlue], twin = rotate(p.students[kRed]);
  if (const std::uint64_t differ = mine ^ twin)
    return (twin >> (63 - std::countl_zero(differ))) & 1;
  return encode(p) < encode(swapped(p));  // no state is its own twin: the player to move differs
}

std::string Rules::cell_name(int cell) const {
  return std::string(1, static_cast<char>('a' + cell % n_)) + std::to_string(cell / n_ + 1);
}

std::string Rules::move_name(const Position& p, const Move& m) const {
  if (m.pass) return "pass " + types_[m.card].name;
  const bool capture = ((p.students[1 - p.player] >> m.to) & 1) || p.master[1 - p.player] == m.to;
  return types_[m.card].name + " " + cell_name(m.from) + (capture ? "x" : "-") + cell_name(m.to);
}

std::string Rules::render(const Position& p) const {
  std::ostringstream os;
  os << "Onitama " << board_name() << ", " << kPlayerName[p.player] << " to move";
  if (is_terminal(p)) os << " (game over: " << kPlayerName[1 - p.player] << " has won)";
  os << "\n   ";
  for (int x = 0; x < n_; ++x) os << ' ' << static_cast<char>('a' + x);
  os << '\n';
  for (int y = 0; y < m_; ++y) {
    std::string num = std::to_string(y + 1);
    os << std::string(3 - std::min<std::size_t>(3, num.size()), ' ') << num;
    for (int x = 0; x < n_; ++x) {
      const int c = y * n_ + x;
      char ch = '.';
      if (p.master[kRed] == c)
        ch = 'R';
      else if (p.master[kBlue] == c)
        ch = 'B';
      else if ((p.students[kRed] >> c) & 1)
        ch = 'r';
      else if ((p.students[kBlue] >> c) & 1)
        ch = 'b';
      os << ' ' << ch;
    }
    os << '\n';
  }
  const Dist& d = dists_[p.dist];
  os << "red: " << types_[d.hand[kRed][0]].name << ", " << types_[d.hand[kRed][1]].name << '\n';
  os << "blue: " << types_[d.hand[kBlue][0]].name << ", " << types_[d.hand[kBlue][1]].name << '\n';
  os << "aside: " << types_[d.aside].name << '\n';
  return os.str();
}

Position Rules::parse(std::string_view text) const {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("bad onitama state: " + why);
  };
  std::vector<std::string> rows;
  std::map<std::string, std::string> fields;
  int to_move = -1;
  auto player_word = [&](std::string_view w) {
    std::string l = lower(trim(w));
    if (l == "red" || l == "r") return kRed;
    if (l == "blue" || l == "b") return kBlue;
    fail("'" + std::string(w) + "' is not a player (red or blue)");
    return kRed;
  };
  auto is_row = [&](std::string_view s) {
    if (s.empty()) return false;
    for (char ch : s)
      if (std::string_view(".rRbB- ").find(ch) == std::string_view::npos) return false;
    return true;
  };
  auto add_row = [&](std::string_view s) {
    std::string r;
    for (char ch : s)
      if (ch != ' ') r += ch == '-' ? '.' : ch;
    rows.push_back(r);
  };
  for (std::string_view line : split(text, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    std::string l = lower(line);
    if (l.rfind("onitama", 0) == 0) {  // header: "Onitama 3x4, Red to move ..."
      auto pos = l.find(" to move");
      if (pos == std::string::npos) fail("header without '<player> to move'");
      auto start = l.rfind(' ', pos - 1);
      to_move = player_word(l.substr(start + 1, pos - start - 1));
      continue;
    }
    if (auto colon = line.find(':'); colon != std::string_view::npos) {
      fields[lower(trim(line.substr(0, colon)))] = std::string(trim(line.substr(colon + 1)));
      continue;
    }
    // A coordinate header "a b c" is skipped; a row may start with its number.
    bool header = true;
    for (char ch : line) header &= ch == ' ' || (ch >= 'a' && ch < 'a' + n_);
    if (header && line.find_first_of("acdefgh") != std::string_view::npos &&
        line.size() == static_cast<std::size_t>(2 * n_ - 1))
      continue;
    std::size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    std::string_view rest = trim(line.substr(digits));
    if (is_row(rest)) {
      add_row(rest);
      continue;
    }
    // One-line form: "rRr/.../bBb red key=value ..."
    std::istringstream words{std::string(line)};
    std::string w;
    while (words >> w) {
      if (auto eq = w.find('='); eq != std::string::npos)
        fields[lower(w.substr(0, eq))] = w.substr(eq + 1);
      else if (w.find('/') != std::string::npos) {
        for (auto r : split(w, '/')) {
          if (!is_row(r)) fail("row '" + std::string(r) + "' has a character other than . r R b B");
          add_row(r);
        }
      } else
        to_move = player_word(w);
    }
  }
  if (auto it = fields.find("to move"); it != fields.end())
    to_move = player_word(it->second), fields.erase(it);
  if (auto it = fields.find("turn"); it != fields.end())
    to_move = player_word(it->second), fields.erase(it);
  if (to_move < 0) fail("who is to move is not given (add 'red' or 'blue')");
  if (static_cast<int>(rows.size()) != m_)
    fail("expected " + std::to_string(m_) + " rows for board " + board_name() + ", got " +
         std::to_string(rows.size()));
  Position p;
  p.player = to_move;
  p.master[kRed] = p.master[kBlue] = cells_;
  int masters[2] = {0, 0};
  for (int y = 0; y < m_; ++y) {
    if (static_cast<int>(rows[y].size()) != n_)
      fail("row " + std::to_string(y + 1) + " has " + std::to_string(rows[y].size()) +
           " cells, expected " + std::to_string(n_));
    for (int x = 0; x < n_; ++x) {
      const int c = y * n_ + x;
      switch (rows[y][x]) {
        case 'R':
          p.master[kRed] = c, ++masters[kRed];
          break;
        case 'B':
          p.master[kBlue] = c, ++masters[kBlue];
          break;
        case 'r':
          p.students[kRed] |= std::uint64_t{1} << c;
          break;
        case 'b':
          p.students[kBlue] |= std::uint64_t{1} << c;
          break;
        default:
          break;
      }
    }
  }
  for (int c = 0; c < 2; ++c) {
    if (masters[c] > 1) fail(std::string(kPlayerName[c]) + " has more than one master");
    if (std::popcount(p.students[c]) > n_ - 1)
      fail(std::string(kPlayerName[c]) + " has more than " + std::to_string(n_ - 1) + " students");
  }
  const int just_moved = 1 - to_move;
  if (p.master[just_moved] == cells_)
    fail(std::string(kPlayerName[just_moved]) + "'s master is captured, yet " +
         kPlayerName[just_moved] + " made the last move");
  if (p.master[to_move] == temple_[just_moved])
    fail(std::string(kPlayerName[to_move]) +
         "'s master already stands on the opposing temple arch");

  // Cards: by name (or offsets) among this game's five; optional when all five play alike.
  if (fields.empty() && dists_.size() == 1) {
    p.dist = 0;
    return p;
  }
  auto type_of = [&](const std::string& name) {
    for (std::size_t t = 0; t < types_.size(); ++t)  // this game's own names first (custom cards)
      for (const Card& d : deck_)
        if (d.same_moves(types_[t]) && lower(d.name) == lower(name)) return static_cast<int>(t);
    Card c = parse_card(name);
    for (std::size_t t = 0; t < types_.size(); ++t)
      if (types_[t].same_moves(c)) return static_cast<int>(t);
    fail("card '" + name + "' is not one of this game's cards (" + deck_name() + ")");
    return 0;
  };
  auto pair_of = [&](const char* key) {
    auto it = fields.find(key);
    if (it == fields.end()) fail(std::string("missing '") + key + ":' cards");
    std::vector<std::string> names;  // split at commas outside "(dx,dy)"
    int depth = 0;
    std::string cur;
    for (char ch : it->second) {
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      if (ch == ',' && depth == 0)
        names.emplace_back(trim(cur)), cur.clear();
      else
        cur += ch;
    }
    names.emplace_back(trim(cur));
    if (names.size() != 2) fail(std::string("'") + key + ":' needs two cards separated by a comma");
    return std::pair{type_of(names[0]), type_of(names[1])};
  };
  auto [r0, r1] = pair_of("red");
  auto [b0, b1] = pair_of("blue");
  auto it = fields.find("aside");
  if (it == fields.end()) fail("missing 'aside:' card");
  const int a = type_of(std::string(trim(it->second)));
  std::array<int, 5> s{std::min(r0, r1), std::max(r0, r1), std::min(b0, b1), std::max(b0, b1), a};
  p.dist = find_dist(s);
  if (p.dist < 0) fail("these hands and set-aside card are not a deal of this game's five cards");
  return p;
}

}  // namespace zermelo::onitama
