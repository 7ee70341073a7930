// Ostle's rules on bitboards: the board, moves, pushes, the hole, removals, the win, the
// repetition rule and the text forms. Everything else in the Ostle module (symmetry, the dense
// index, the Game interface, counting) is built on these few functions, so this is the one place
// where the rules of docs/ostle.md live.
//
// Squares: s = 5*file + (rank-1), a1 = 0, a2 = 1, ..., e5 = 24; a bitboard has bit s set for a
// piece on s. A Position is always seen from the side to move ("me" moves next, "opp" just
// moved). Directions: U towards rank 1, D towards rank 5, L towards file a, R towards file e.
//
// Fixed move order (successors, move names and tests rely on it): by the square of the thing
// that moves (one of my pieces or the hole), a1, a2, ..., e5, and on one square U, D, L, R.
//
// The repetition rule (no move may recreate the position of two plies before) is carried as a
// forbidden-move code: 0 = none, else 1 + the code of the one move that would undo the last ply.
// Two kinds of ply can be undone: a hole move (by moving the hole back) and a push whose front
// piece belongs to the next mover and that removed nothing (by pushing that piece straight back:
// the whole chain returns and the square the pusher came from is empty). A move that removed a
// piece cannot be undone, so a winning move is never forbidden. A state is a Position plus this
// code.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace zermelo::ostle {

using Bits = std::uint32_t;
constexpr int kSquares = 25;
constexpr Bits kBoardMask = (Bits{1} << kSquares) - 1;

enum Dir : int { kUp = 0, kDown = 1, kLeft = 2, kRight = 3 };
constexpr int kDirs = 4;
constexpr char kDirLetter[kDirs] = {'U', 'D', 'L', 'R'};
constexpr int opposite(int d) { return d ^ 1; }

constexpr int file_of(int s) { return s / 5; }
constexpr int rank_of(int s) { return s % 5; }  // 0-based: rank 1 = 0
constexpr int square_at(int file, int rank) { return 5 * file + rank; }
constexpr Bits bit(int s) { return Bits{1} << s; }

// The neighbour of s in direction d, or -1 off the board.
constexpr int step(int s, int d) {
  switch (d) {
    case kUp:
      return rank_of(s) == 0 ? -1 : s - 1;
    case kDown:
      return rank_of(s) == 4 ? -1 : s + 1;
    case kLeft:
      return file_of(s) == 0 ? -1 : s - 5;
    default:
      return file_of(s) == 4 ? -1 : s + 5;
  }
}

// Squares from which a step in direction d leaves the board.
inline constexpr std::array<Bits, kDirs> kEdgeMask = [] {
  std::array<Bits, kDirs> m{};
  for (int d = 0; d < kDirs; ++d)
    for (int s = 0; s < kSquares; ++s)
      if (step(s, d) < 0) m[d] |= bit(s);
  return m;
}();
constexpr Bits edge_mask(int d) { return kEdgeMask[d]; }

// Every square shifted one step in direction d (squares that would leave the board vanish).
constexpr Bits shift(Bits b, int d) {
  switch (d) {
    case kUp:
      return (b & ~kEdgeMask[kUp]) >> 1;
    case kDown:
      return (b & ~kEdgeMask[kDown]) << 1;
    case kLeft:
      return b >> 5;
    default:
      return (b << 5) & kBoardMask;
  }
}

inline constexpr std::array<Bits, kSquares> kNeighbours = [] {
  std::array<Bits, kSquares> m{};
  for (int s = 0; s < kSquares; ++s)
    for (int d = 0; d < kDirs; ++d)
      if (step(s, d) >= 0) m[s] |= bit(step(s, d));
  return m;
}();
constexpr Bits neighbours(int s) { return kNeighbours[s]; }

inline Bits pdep(Bits src, Bits mask) {
#if defined(__BMI2__)
  return _pdep_u32(src, mask);
#else
  Bits out = 0;
  for (Bits m = mask; m; m &= m - 1, src >>= 1)
    if (src & 1u) out |= m & (~m + 1);
  return out;
#endif
}
inline Bits pext(Bits src, Bits mask) {
#if defined(__BMI2__)
  return _pext_u32(src, mask);
#else
  Bits out = 0;
  int k = 0;
  for (Bits m = mask; m; m &= m - 1, ++k)
    if (src & m & (~m + 1)) out |= Bits{1} << k;
  return out;
#endif
}

struct Position {
  Bits me = 0;   // pieces of the side to move
  Bits opp = 0;  // pieces of the side that just moved
  int hole = 0;  // square of the hole
  Bits pieces() const { return me | opp; }
  Bits empty() const { return kBoardMask & ~(me | opp | bit(hole)); }
  int my_count() const { return std::popcount(me); }
  int opp_count() const { return std::popcount(opp); }
  // The same board from the other side's point of view.
  Position swapped() const { return Position{opp, me, hole}; }
  friend bool operator==(const Position&, const Position&) = default;
};

// A move: the square of the piece or hole that moves, and a direction. code = 4*square + dir.
struct Move {
  std::uint8_t square = 0;
  std::uint8_t dir = 0;
  constexpr int code() const { return 4 * square + dir; }
  friend bool operator==(const Move&, const Move&) = default;
};

// Forbidden-move codes (the repetition rule): 0 = none, 1 + move code = that move is forbidden.
constexpr int kNoForbidden = 0;
constexpr int kForbidCodes = 1 + 4 * kSquares;  // codes 0..100 (7 bits)
constexpr int forbid_of(Move m) { return 1 + m.code(); }
constexpr Move forbidden_move(int code) {
  return Move{static_cast<std::uint8_t>((code - 1) / 4), static_cast<std::uint8_t>((code - 1) % 4)};
}

// The forbidden codes a previous ply could have caused in p, in increasing order: none, if some
// previous ply could have left no undo (see has_plain_producer); the hole moving back onto an
// empty neighbour; a piece of the mover pushing back a run that ends in an opponent piece
// followed by an empty square. At most 1 + 4 + 20.
struct ForbidList {
  std::array<std::uint8_t, 28> codes{};
  int size = 0;
  const std::uint8_t* begin() const { return codes.data(); }
  const std::uint8_t* end() const { return codes.data() + size; }
};
ForbidList reachable_forbid_codes(const Position& p);
// Squares of the mover's pieces that could push back in direction d (a bitboard), see above.
Bits pushback_sources(const Position& p, int d);
// How many forbidden codes p has (its possibly reachable states, before symmetry).
int reachable_forbid_count(const Position& p);
// True when some move into p leaves nothing forbidden, so that the state (p, none) exists: a
// piece of the side that just moved stepped onto a square next to the empty one it came from,
// or, that side having four pieces, one of its pieces left the board or fell into the hole from
// an empty square. (Every other un-move with no undo starts from such a step.)
bool has_plain_producer(const Position& p);

// What a move did besides moving things.
enum class Outcome : std::uint8_t {
  kContinues,  // both sides still have at least four pieces
  kMoverWins,  // the opponent was left with three pieces
  kMoverLoses  // the mover removed its own fourth-last piece
};

struct MoveResult {
  Position next;    // from the next mover's point of view (colours swapped)
  int next_forbid;  // the forbidden code of the next state: the move that would undo this one
  Outcome outcome;
  int removed;  // -1 none, 0 a piece of the mover, 1 a piece of the opponent
};

// The legal moves of a state in the fixed order (at most 5*4 piece moves + 3 hole moves).
struct MoveList {
  std::array<Move, 24> moves{};
  int size = 0;
  void push(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};
MoveList legal_moves(const Position& p, int forbid);

// Plays a legal move (no legality check beyond what the move needs).
MoveResult apply_move(const Position& p, Move m);

// True when the side to move can remove an opponent piece and the opponent has exactly four:
// a checkmate position (the mover wins at once). Bitboard fill, no move generation.
bool is_checkmate(const Position& p);

// Un-moves: every (previous position, move) such that the move, played in the previous position
// by the side that just moved, gives exactly `p` with forbidden code `forbid`. The previous
// position is from its mover's point of view. The previous position's own forbidden code is not
// chosen here (any code reachable there and not forbidding the move will do).
struct UnMove {
  Position prev;
  Move move;
};
void unmoves(const Position& p, int forbid, std::vector<UnMove>& out);

// --- Text forms ---------------------------------------------------------------------------
// Board: 25 digits, rank 1 first, each rank a..e, 1 = mover, 2 = opponent, 3 = hole, 0 = empty,
// ranks separated by '-': the start is 11111-00000-00300-00000-22222.
std::string to_text(const Position& p);
// Parses and validates (length, digits, one hole, 4-5 pieces a side); on failure returns nullopt
// and a message naming what is wrong.
std::optional<Position> parse_position(std::string_view text, std::string* error);
// State: a board, optionally followed by ':' and the forbidden move, e.g. "...:c4U"; the move
// must be one a previous ply could have caused (see reachable_forbid_codes); or `start`.
std::optional<std::pair<Position, int>> parse_state(std::string_view text, std::string* error);
std::string state_to_text(const Position& p, int forbid);

std::string square_name(int s);  // "e3"
std::string move_name(Move m);   // "e3L"
std::optional<Move> parse_move(std::string_view text, std::string* error);

// A 5x5 diagram: x = side to move, o = opponent, # = hole, . = empty; rank 1 on top.
std::string diagram(const Position& p, int forbid);

Position start_position();

}  // namespace zermelo::ostle
