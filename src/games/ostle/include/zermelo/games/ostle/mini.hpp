// Ostle generalised to small boards: a W x H board, p pieces a side, the same rules as the 5x5
// game (pushes, the hole, removal off the board or into the hole, the rule against recreating
// the position of two plies before), written as plain cell-array code so that whole variants
// such as 3x3 or 4x4 with 2-3 pieces can be solved in seconds and checked against plain solvers.
//
// Generalisation (docs/ostle.md, "Small boards"): each side starts with p pieces and loses when
// left with p-2, i.e. when it has lost two pieces (5x5:p5 is Ostle itself: lose at three). So a
// position has p-1 or p pieces a side. Symmetric positions are NOT identified: a state is exactly
// one board plus the forbidden move, so un-moves need no symmetry multiplicities.
//
// Squares and notation follow the 5x5 module: s = H*file + (rank-1), files a.. left to right,
// ranks 1.. top to bottom, moves "b2U" (U towards rank 1, D towards rank H, L, R). Text form:
// H groups (rank 1 first) of W digits (files a..), 1 = side to move, 2 = opponent, 3 = hole,
// 0 = empty, groups separated by '-' (optional), then optionally ':' and the forbidden move.
// The fixed move order: by square a1, a2, ..., and on each square U, D, L, R.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/games/ostle/options.hpp"

namespace zermelo::ostle::mini {

constexpr int kMaxSquares = 28;  // 2 bits a square + 7 bits of forbidden code fit a 64-bit key
constexpr int kCodeBits = 7;     // key: board (2 bits a square) << kCodeBits | forbidden code
constexpr int kNoForbid = 0;     // forbidden code: 0 none, else 1 + 4*square + dir

enum Cell : std::uint8_t { kEmpty = 0, kMine = 1, kTheirs = 2, kHole = 3 };

struct MiniMove {
  int square = 0, dir = 0;  // dir 0 U, 1 D, 2 L, 3 R
  int code() const { return 4 * square + dir; }
  int forbid() const { return 1 + code(); }
  bool operator==(const MiniMove&) const = default;
};

// A board from the point of view of the side to move.
struct Board {
  std::array<std::uint8_t, kMaxSquares> cell{};
  int hole = 0;
  bool operator==(const Board&) const = default;
};

enum class MoveOutcome { kContinues, kMoverWins, kMoverLoses };

struct Played {
  Board next;  // from the next mover's point of view
  int next_forbid = kNoForbid;
  MoveOutcome outcome = MoveOutcome::kContinues;
};

struct UnMove {
  Board prev;  // from the point of view of the side that played `move`
  MiniMove move;
};

// The board shape and material, with every rule that depends on them.
class Rules {
 public:
  Rules(int width, int height, int pieces);
  // "WxH:pP", e.g. "4x4:p3"; throws std::invalid_argument naming what is wrong.
  static Rules from_variant(std::string_view text);

  int width() const { return w_; }
  int height() const { return h_; }
  int pieces() const { return p_; }
  int squares() const { return w_ * h_; }
  std::string variant() const;
  int square_at(int file, int rank) const { return h_ * file + rank; }
  int file_of(int s) const { return s / h_; }
  int rank_of(int s) const { return s % h_; }
  // The neighbour of square s in direction d, or -1 off the board. A table, not file_of/rank_of's
  // divisions: every rule walks runs of squares (a rules-bound test: 0.93x the CPU).
  int step(int s, int d) const {
    return step_[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)];
  }

  int count(const Board& b, Cell who) const;
  // Legal moves in the fixed order, leaving out the forbidden one.
  std::vector<MiniMove> legal_moves(const Board& b, int forbid) const;
  Played play(const Board& b, MiniMove m) const;
  // The opponent has p-1 pieces and the mover can remove one: the mover wins at once.
  bool is_checkmate(const Board& b) const;
  // Forbidden codes a previous ply could have left, increasing: none (if some ply into b leaves
  // no undo), then the undo moves.
  std::vector<int> reachable_forbids(const Board& b) const;
  // Every (previous board, move) whose play gives exactly (b, forbid).
  std::vector<UnMove> unmoves(const Board& b, int forbid) const;

  // The published solver's reading of the repetition rule (published.hpp on 5x5), on boards that
  // are not identified under symmetry: a state is a board C plus 1 + the first move of C whose
  // result is congruent to the board before the last ply (the symmetries of the W x H
  // rectangle: 8 on a square, else 4), or none. mini_published.cpp.
  int symmetries() const { return w_ == h_ ? 8 : 4; }
  StateKey class_key(const Board& b) const;  // the smallest key of b's images (code 0)
  // The code of the state a move from `prev` into `next` leaves: 1 + next's first move whose
  // result is one of prev's images, or none.
  int published_forbid(const Board& next, const Board& prev) const;
  // The codes of b's states under that reading, increasing (none first if it exists).
  std::vector<int> published_forbids(const Board& b) const;
  // Every (previous board, move) whose play leaves the state (b, forbid) under that reading: the
  // exact un-moves of b over all its exact codes whose board's class gives `forbid`.
  std::vector<UnMove> published_unmoves(const Board& b, int forbid) const;

  StateKey key(const Board& b, int forbid) const;
  std::pair<Board, int> decode(StateKey k) const;

  Board start() const;
  std::string square_name(int s) const;
  std::string move_name(MiniMove m) const;
  std::string to_text(const Board& b, int forbid) const;
  std::string diagram(const Board& b, int forbid) const;
  // Parses and validates a state; on failure nullopt and a message naming what is wrong. With
  // `published`, the move after ':' names the class of the board before (published_forbid).
  std::optional<std::pair<Board, int>> parse(std::string_view text, std::string* error,
                                             bool published = false) const;

 private:
  // The key (code 0) of b's image under symmetry g, straight from b's cells.
  StateKey image_key(const Board& b, int g) const;

  int w_, h_, p_;
  // image_[g][s]: the square s goes to under symmetry g (image_key() is on the hot path of the
  // published reading: a child's state compares each of its moves' results with the images of
  // the board before).
  std::array<std::array<std::uint8_t, kMaxSquares>, 8> image_{};
  std::array<std::array<std::int8_t, 4>, kMaxSquares> step_{};
};

std::unique_ptr<Game> make_mini_game(const Rules& rules, const GameOptions& options = {});

}  // namespace zermelo::ostle::mini
