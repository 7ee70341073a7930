// Onitama on an n×m board with any five cards: positions, the 64-bit state key, moves and un-moves,
// the player-swap symmetry, and text in and out. Everything that knows the rules lives here; the
// explorer and solvers (graph.hpp, solve.hpp) only call these hooks.
//
// Key: a mixed-radix number over (player, card distribution, Red master, Blue master, Red
// students, Blue students). A card distribution is the canonical (set-aside card, Red's unordered
// pair, Blue's unordered pair) up to identical cards; a master is a cell or "captured" (= cells);
// each student set is ranked by (size, colexicographic rank). Boards are accepted when that radix
// product fits 64 bits and the board has at most 63 cells (5×5 with five cards: ~2^43).
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zermelo/games/onitama/cards.hpp"

namespace zermelo::onitama {

using Key = std::uint64_t;
enum : int { kRed = 0, kBlue = 1 };

struct Position {
  int player = kRed;       // to move
  int dist = 0;            // canonical card distribution id
  int master[2] = {0, 0};  // cell, or Rules::cells() when captured
  std::uint64_t students[2] = {0, 0};
  friend bool operator==(const Position&, const Position&) = default;
};

// One move from a position: a pawn from→to with a card type, or a pass giving a card away.
struct Move {
  int from = -1, to = -1;
  int card = 0;  // index into Rules::card_types()
  bool pass = false;
};

class Rules {
 public:
  // Throws std::invalid_argument naming the problem (board too small or too large, deck size).
  Rules(int width, int height, std::vector<Card> deck);
  // From the factory options: {"3x4"} or {"3x4", "boar"} or {"3x4", "tiger,ox,boar,crab,eel"}.
  static Rules from_options(const std::vector<std::string>& options);
  static std::pair<int, int> parse_board(std::string_view text);  // "3x4" -> (3, 4)

  int width() const { return n_; }
  int height() const { return m_; }
  int cells() const { return cells_; }
  const std::vector<Card>& deck() const { return deck_; }
  const std::vector<Card>& card_types() const { return types_; }
  int distributions() const { return static_cast<int>(dists_.size()); }
  Key key_space() const { return key_space_; }  // every key is < key_space()
  std::string board_name() const { return std::to_string(n_) + "x" + std::to_string(m_); }
  std::string deck_name() const;

  Key encode(const Position& p) const;
  Position decode(Key k) const;

  Position start_position() const;
  Key start() const { return encode(start_position()); }

  // A master captured or on the opponent's temple arch: lost for the player to move.
  bool is_terminal(const Position& p) const {
    return p.master[kRed] == cells_ || p.master[kBlue] == cells_ ||
           p.master[kRed] == temple_[kBlue] || p.master[kBlue] == temple_[kRed];
  }
  bool has_move(const Position& p) const;  // a pawn move exists (otherwise the mover passes)

  // A state of the encoding that moves and un-moves can name, reachable from the start or not:
  // pieces on distinct cells, at most n-1 students a side, the player who just moved still has a
  // master, and the player to move's master is not on the opposing arch (that game ended earlier).
  // Children of legal non-terminal states and parents named by for_each_parent are legal.
  bool is_legal(const Position& p) const;
  // Calls f(key) for every legal state with `red` Red and `blue` Blue students, keys increasing,
  // without storing anything: the out-of-core enumeration of one tier. `blue_sets` [first, end)
  // keeps only the sets of Blue's students of those indices (of blue_student_sets(blue)), for an
  // enumeration cut into parts.
  template <class F>
  void for_each_legal_key(int red, int blue, F&& f, std::uint64_t first_blue_set = 0,
                          std::uint64_t end_blue_set = ~std::uint64_t{0}) const;
  std::uint64_t blue_student_sets(int blue) const {
    return size_offset_[static_cast<std::size_t>(blue) + 1] -
           size_offset_[static_cast<std::size_t>(blue)];
  }
  // How many keys for_each_legal_key gives, by counting (master placements × student sets).
  std::uint64_t count_legal(int red, int blue) const;
  // The same for a tier of the folded game, "s<hi>s<lo>": one state of each pair of twins. The swap
  // maps Red-hi/Blue-lo states one to one onto Red-lo/Blue-hi ones and no state is its own twin
  // (the player to move differs), so it is one of the two tiers' counts, or half of an even tier.
  std::uint64_t count_folded(int hi, int lo) const {
    return hi == lo ? count_legal(hi, lo) / 2 : count_legal(hi, lo);
  }
  // Keys divided by keys_per_group() number groups of keys in key order: one placement of the
  // students and Blue's master (every Red master, deal and player to move). The groups of the
  // states with `red` and `blue` students lie in [first, end) of student_groups(red, blue).
  std::uint64_t keys_per_group() const {
    return static_cast<std::uint64_t>(cells_ + 1) * dists_.size() * 2;
  }
  std::pair<std::uint64_t, std::uint64_t> student_groups(int red, int blue) const;
  int count_children(const Position& p) const;  // = the number of for_each_child calls, cheaply

  // Calls f(child, move) for every move, distinct children in a fixed order; none when terminal.
  template <class F>
  void for_each_child(const Position& p, F&& f) const;
  // Calls f(parent, move) for every non-terminal parent with a move to p (one call per edge).
  template <class F>
  void for_each_parent(const Position& p, F&& f) const;

  // The player-swap symmetry: board turned 180°, colours, hands and player to move swapped.
  Position swapped(const Position& p) const;
  Key canonical(Key k) const {
    Key s = encode(swapped(decode(k)));
    return s < k ? s : k;
  }
  // Whether p's key is the smaller of the twins' (p is its own folded form). Cheap: the key
  // ranks Blue's students first, by set size first, so the counts or Blue's set usually decide.
  bool is_folded(const Position& p) const;
  Key folded_key(const Position& p) const { return is_folded(p) ? encode(p) : encode(swapped(p)); }

  std::string render(const Position& p) const;
  // Reads render()'s text, or one line "r R r/. . ./b B b red [red=c,c blue=c,c aside=c]".
  // Card fields may be left out when all five cards play alike. Throws std::invalid_argument.
  Position parse(std::string_view text) const;
  std::string move_name(const Position& p,
                        const Move& m) const;  // "Boar b1-b2", "Boar b1xb2", "pass Boar"
  std::string cell_name(int cell) const;

 private:
  struct Dist {
    int hand[2][2];      // card types in each hand
    int aside;           // set-aside card type
    int distinct[2][2];  // distinct types in each hand (count in n_distinct)
    int n_distinct[2];
    int after[2][2];  // distribution after player p gives away distinct[p][h]; also the
                      // distribution before, if distinct[p][h] was the old set-aside card
    int swapped;
  };

  std::uint64_t moves(int player, int type, int cell) const {
    return moves_[player][type * cells_ + cell];
  }
  std::uint64_t origins(int player, int type, int cell) const {
    return origins_[player][type * cells_ + cell];
  }
  std::uint64_t rank_students(std::uint64_t mask) const;
  std::uint64_t unrank_students(std::uint64_t rank) const;
  std::uint64_t rotate(std::uint64_t mask) const;
  int find_dist(std::array<int, 5> signature) const;

  int n_, m_, cells_;
  std::vector<Card> deck_;
  std::vector<Card> types_;
  int start_dist_ = 0;
  int start_player_ = kRed;
  int temple_[2];
  std::vector<Dist> dists_;
  std::vector<std::array<int, 5>> signatures_;  // (red lo, red hi, blue lo, blue hi, aside)
  std::vector<std::uint64_t> moves_[2], origins_[2];
  std::uint64_t binom_[65][65] = {};
  std::vector<std::uint64_t> size_offset_;   // rank of the first student set of each size
  std::uint64_t student_sets_ = 0;           // S = sum of C(cells, k) for k < width
  std::vector<std::uint64_t> unrank_table_;  // rank -> student mask, when S is small
  Key key_space_ = 0;
};

// ---- hot paths, inline ----

template <class F>
void Rules::for_each_child(const Position& p, F&& f) const {
  if (is_terminal(p)) return;
  const int me = p.player, op = 1 - me;
  const Dist& d = dists_[p.dist];
  const std::uint64_t own = p.students[me] | (std::uint64_t{1} << p.master[me]);
  bool moved = false;
  for (int h = 0; h < d.n_distinct[me]; ++h) {
    const int t = d.distinct[me][h];
    Position base = p;
    base.player = op;
    base.dist = d.after[me][h];
    for (std::uint64_t pieces = own; pieces; pieces &= pieces - 1) {
      const int from = std::countr_zero(pieces);
      for (std::uint64_t to_set = moves(me, t, from) & ~own; to_set; to_set &= to_set - 1) {
        const int to = std::countr_zero(to_set);
        const std::uint64_t to_bit = std::uint64_t{1} << to;
        Position c = base;
        if (from == p.master[me])
          c.master[me] = to;
        else
          c.students[me] ^= (std::uint64_t{1} << from) | to_bit;
        if (c.students[op] & to_bit)
          c.students[op] ^= to_bit;
        else if (c.master[op] == to)
          c.master[op] = cells_;
        moved = true;
        f(static_cast<const Position&>(c), Move{from, to, t, false});
      }
    }
  }
  if (moved) return;
  for (int h = 0; h < d.n_distinct[me]; ++h) {
    Position c = p;
    c.player = op;
    c.dist = d.after[me][h];
    f(static_cast<const Position&>(c), Move{-1, -1, d.distinct[me][h], true});
  }
}

// Masks of k cells out of `cells` in increasing order, which is the colexicographic order of
// rank_students: the i-th mask has rank size_offset_[k] + i.
template <class F>
void for_each_subset(int cells, int k, F&& f) {
  if (k > cells) return;
  const std::uint64_t end = std::uint64_t{1} << cells;
  for (std::uint64_t x = (std::uint64_t{1} << k) - 1; x < end;) {
    f(x);
    if (x == 0) return;
    const std::uint64_t low = x & (~x + 1), ripple = x + low;  // Gosper's hack
    x = (((ripple ^ x) >> 2) / low) | ripple;
  }
}

template <class F>
void Rules::for_each_legal_key(int red, int blue, F&& f, std::uint64_t first_blue_set,
                               std::uint64_t end_blue_set) const {
  if (red < 0 || blue < 0 || red >= n_ || blue >= n_) return;
  const std::uint64_t mm = static_cast<std::uint64_t>(cells_ + 1), deals = dists_.size();
  const std::uint64_t board = (std::uint64_t{1} << cells_) - 1;
  std::uint64_t blue_rank = size_offset_[blue];
  for_each_subset(cells_, blue, [&](std::uint64_t blue_set) {
    const std::uint64_t set = blue_rank - size_offset_[blue];
    if (set < first_blue_set || set >= end_blue_set) return void(++blue_rank);
    std::uint64_t red_rank = size_offset_[red];
    for_each_subset(cells_, red, [&](std::uint64_t red_set) {
      const std::uint64_t rank = red_rank++;
      if (red_set & blue_set) return;
      const std::uint64_t free = board & ~(red_set | blue_set);
      const Key students = blue_rank * student_sets_ + rank;
      // Key order: Blue's master, then Red's, then the deal, then the player (all increasing).
      for (int mb = 0; mb <= cells_; ++mb) {
        if (mb < cells_ && !((free >> mb) & 1)) continue;
        for (int mr = 0; mr <= cells_; ++mr) {
          if (mr < cells_ && (!((free >> mr) & 1) || mr == mb)) continue;
          const int master[2] = {mr, mb};
          bool ok[2];
          for (int player = 0; player < 2; ++player)
            ok[player] = master[1 - player] != cells_ && master[player] != temple_[1 - player];
          if (!ok[0] && !ok[1]) continue;
          const Key base = ((students * mm + static_cast<std::uint64_t>(mb)) * mm +
                            static_cast<std::uint64_t>(mr)) *
                           deals;
          for (std::uint64_t d = 0; d < deals; ++d)
            for (int player = 0; player < 2; ++player)
              if (ok[player])
                f(static_cast<Key>((base + d) * 2 + static_cast<std::uint64_t>(player)));
        }
      }
    });
    ++blue_rank;
  });
}

template <class F>
void Rules::for_each_parent(const Position& p, F&& f) const {
  const int cur = p.player, pm = 1 - cur;  // pm made the move that led to p
  if (p.master[pm] == cells_) return;      // the mover's own master was gone: no such move
  const Dist& d = dists_[p.dist];
  const int used = d.aside;  // the card pm played (or gave away when passing)
  std::uint64_t occupied = p.students[0] | p.students[1] | (std::uint64_t{1} << p.master[pm]);
  if (p.master[cur] != cells_) occupied |= std::uint64_t{1} << p.master[cur];
  const bool master_taken = p.master[cur] == cells_;
  const bool student_taken_possible = std::popcount(p.students[cur]) < n_ - 1;
  const std::uint64_t own = p.students[pm] | (std::uint64_t{1} << p.master[pm]);
  for (int h = 0; h < d.n_distinct[pm]; ++h) {
    Position base = p;
    base.player = pm;
    base.dist = d.after[pm][h];  // the swap undoes itself
    for (std::uint64_t pieces = own; pieces; pieces &= pieces - 1) {
      const int to = std::countr_zero(pieces);
      const std::uint64_t to_bit = std::uint64_t{1} << to;
      for (std::uint64_t from_set = origins(pm, used, to) & ~occupied; from_set;
           from_set &= from_set - 1) {
        const int from = std::countr_zero(from_set);
        Position q = base;
        if (to == p.master[pm])
          q.master[pm] = from;
        else
          q.students[pm] ^= (std::uint64_t{1} << from) | to_bit;
        const Move mv{from, to, used, false};
        if (master_taken) {
          q.master[cur] = to;
          if (!is_terminal(q)) f(static_cast<const Position&>(q), mv);
          continue;
        }
        if (!is_terminal(q)) f(static_cast<const Position&>(q), mv);
        if (student_taken_possible) {
          q.students[cur] |= to_bit;
          if (!is_terminal(q)) f(static_cast<const Position&>(q), mv);
        }
      }
    }
    if (!is_terminal(base) && !has_move(base))
      f(static_cast<const Position&>(base), Move{-1, -1, used, true});
  }
}

}  // namespace zermelo::onitama
