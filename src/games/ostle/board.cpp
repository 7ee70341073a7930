// Ostle's rules on bitboards (see zermelo/games/ostle/board.hpp).
#include "zermelo/games/ostle/board.hpp"

#include <sstream>

#include "zermelo/engine/state_text.hpp"

namespace zermelo::ostle {

Position start_position() {
  Position p;
  for (int f = 0; f < 5; ++f) {
    p.me |= bit(square_at(f, 0));
    p.opp |= bit(square_at(f, 4));
  }
  p.hole = square_at(2, 2);
  return p;
}

MoveList legal_moves(const Position& p, int forbid) {
  MoveList list;
  const Bits movers = p.me | bit(p.hole);
  const Bits empty = p.empty();
  for (Bits rest = movers; rest; rest &= rest - 1) {
    const int s = std::countr_zero(rest);
    for (int d = 0; d < kDirs; ++d) {
      const Move m{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(d)};
      if (s == p.hole) {
        const int t = step(s, d);
        if (t < 0 || !(empty & bit(t))) continue;
      }
      if (forbid_of(m) == forbid) continue;
      list.push(m);
    }
  }
  return list;
}

MoveResult apply_move(const Position& p, Move m) {
  const int d = m.dir;
  if (m.square == p.hole) {
    const int to = step(p.hole, d);
    Position n{p.opp, p.me, to};
    return MoveResult{
        n, forbid_of(Move{static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(opposite(d))}),
        Outcome::kContinues, -1};
  }
  Bits me = p.me, opp = p.opp;
  const Bits occupied = me | opp;
  // The chain: the moved piece and every piece directly in front of it (the hole stops it).
  int chain[6];
  int n = 0;
  int t = m.square;
  while (t >= 0 && t != p.hole && (occupied & bit(t))) {
    chain[n++] = t;
    t = step(t, d);
  }
  const bool last_falls = t < 0 || t == p.hole;
  int removed = -1;
  for (int i = n - 1; i >= 0; --i) {  // front first, so each destination is already free
    const Bits from = bit(chain[i]);
    const bool mine = (me & from) != 0;
    me &= ~from;
    opp &= ~from;
    if (i == n - 1 && last_falls) {
      removed = mine ? 0 : 1;
      continue;
    }
    const Bits to = bit(i == n - 1 ? t : chain[i + 1]);
    (mine ? me : opp) |= to;
  }
  Outcome outcome = Outcome::kContinues;
  if (removed == 1 && std::popcount(opp) < 4) outcome = Outcome::kMoverWins;
  if (removed == 0 && std::popcount(me) < 4) outcome = Outcome::kMoverLoses;
  // A push of two or more pieces that removed nothing and whose front piece is the opponent's can
  // be pushed straight back by that piece: that push-back is the next state's forbidden move.
  int next_forbid = kNoForbidden;
  if (removed < 0 && n >= 2 && (p.opp & bit(chain[n - 1])))
    next_forbid =
        forbid_of(Move{static_cast<std::uint8_t>(t), static_cast<std::uint8_t>(opposite(d))});
  return MoveResult{Position{opp, me, p.hole}, next_forbid, outcome, removed};
}

namespace {

// pushback_sources with the direction a template argument: constant shifts in the loop.
template <int d>
Bits pushback_sources_to(const Position& p) {
  // Opponent pieces with an empty square (on the board, not the hole) right behind them in
  // direction d, then every square joined to them by a run of pieces against d.
  const Bits occupied = p.pieces();
  Bits run = p.opp & shift(p.empty(), opposite(d));
  for (int k = 0; k < 4; ++k) run |= shift(run, opposite(d)) & occupied;
  return run & p.me;
}

}  // namespace

Bits pushback_sources(const Position& p, int d) {
  switch (d) {
    case kUp:
      return pushback_sources_to<kUp>(p);
    case kDown:
      return pushback_sources_to<kDown>(p);
    case kLeft:
      return pushback_sources_to<kLeft>(p);
    default:
      return pushback_sources_to<kRight>(p);
  }
}

bool has_plain_producer(const Position& p) {
  const Bits empty = p.empty();
  for (int d = 0; d < kDirs; ++d)
    if (shift(empty, d) & p.opp) return true;
  if (p.opp_count() != 4) return false;
  for (int d = 0; d < kDirs; ++d)
    if (empty & (edge_mask(d) | shift(bit(p.hole), opposite(d)))) return true;
  return false;
}

ForbidList reachable_forbid_codes(const Position& p) {
  ForbidList list;
  if (has_plain_producer(p)) list.codes[list.size++] = kNoForbidden;
  const Bits sources[kDirs] = {pushback_sources_to<kUp>(p), pushback_sources_to<kDown>(p),
                               pushback_sources_to<kLeft>(p), pushback_sources_to<kRight>(p)};
  const Bits hole_targets = neighbours(p.hole) & p.empty();
  // Squares in increasing order, directions U D L R: codes come out sorted.
  for (Bits movers =
           sources[0] | sources[1] | sources[2] | sources[3] | (hole_targets ? bit(p.hole) : 0);
       movers; movers &= movers - 1) {
    const int s = std::countr_zero(movers);
    for (int d = 0; d < kDirs; ++d) {
      const bool hole_back = s == p.hole && step(s, d) >= 0 && (hole_targets & bit(step(s, d)));
      if (hole_back || (sources[d] & bit(s)))
        list.codes[list.size++] = static_cast<std::uint8_t>(
            forbid_of(Move{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(d)}));
    }
  }
  return list;
}

int reachable_forbid_count(const Position& p) {
  int n = (has_plain_producer(p) ? 1 : 0) + std::popcount(neighbours(p.hole) & p.empty());
  n += std::popcount(pushback_sources_to<kUp>(p)) + std::popcount(pushback_sources_to<kDown>(p)) +
       std::popcount(pushback_sources_to<kLeft>(p)) + std::popcount(pushback_sources_to<kRight>(p));
  return n;
}

namespace {

// Whether a push in direction d ends one of the opponent's pieces. The direction is a template
// argument, so each shift is a constant mask and shift: with a run-time direction the shift's
// switch was taken inside the loop, and the test runs for every parent of every un-move.
template <int d>
bool pushes_off(const Position& p, Bits occupied) {
  // Opponent pieces whose next square in direction d is off the board or the hole.
  const Bits exposed = p.opp & (kEdgeMask[d] | shift(bit(p.hole), opposite(d)));
  if (!exposed) return false;
  // Squares a push started by one of my pieces reaches through a run of pieces.
  Bits reach = p.me;
  for (int k = 0; k < 4; ++k) reach |= shift(reach, d) & occupied;
  return reach & exposed;
}

}  // namespace

bool is_checkmate(const Position& p) {
  if (p.opp_count() != 4) return false;
  const Bits occupied = p.pieces();
  return pushes_off<kUp>(p, occupied) || pushes_off<kDown>(p, occupied) ||
         pushes_off<kLeft>(p, occupied) || pushes_off<kRight>(p, occupied);
}

void unmoves(const Position& p, int forbid, std::vector<UnMove>& out) {
  out.clear();
  // The side that just moved is p.opp ("them"); previous positions are from their view.
  const Bits occupied = p.pieces();
  if (forbid != kNoForbidden) {
    const Move undo = forbidden_move(forbid);
    const int d = undo.dir;  // the undo goes in direction d, their move went against it
    if (undo.square == p.hole) {
      // They moved the hole from its neighbour in direction d onto its square.
      const int from = step(p.hole, d);
      if (from < 0 || !(p.empty() & bit(from))) return;
      out.push_back(
          UnMove{Position{p.opp, p.me, from},
                 Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(opposite(d))}});
      return;
    }
    // They pushed a run ending in one of my pieces (on the undo's square) from the empty square
    // behind the run: shift the run back.
    if (!(pushback_sources(p, d) & bit(undo.square))) return;
    Bits theirs = p.opp, mine = p.me;
    int s = undo.square;
    std::uint8_t from = 0;
    int run[5], r = 0;
    for (; s >= 0 && s != p.hole && (occupied & bit(s)); s = step(s, d)) run[r++] = s;
    for (int i = r - 1; i >= 0; --i) {
      const int to = step(run[i], d);
      Bits& side = (theirs & bit(run[i])) ? theirs : mine;
      side = (side & ~bit(run[i])) | bit(to);
      if (i == r - 1) from = static_cast<std::uint8_t>(to);
    }
    out.push_back(
        UnMove{Position{theirs, mine, p.hole}, Move{from, static_cast<std::uint8_t>(opposite(d))}});
    return;
  }
  const Bits them = p.opp;
  const int their_count = p.opp_count(), my_count = p.my_count();
  for (Bits empties = p.empty(); empties; empties &= empties - 1) {
    const int s = std::countr_zero(empties);  // where their moved piece started
    for (int d = 0; d < kDirs; ++d) {
      const Move move{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(d)};
      // The run of pieces in front of s: the moved piece and what it pushed, now one step on.
      int run[5];
      int r = 0;
      int t = step(s, d);
      while (t >= 0 && t != p.hole && (occupied & bit(t))) {
        run[r++] = t;
        t = step(t, d);
      }
      const bool end_falls = t < 0 || t == p.hole;
      if (r == 0) {
        // Their piece moved from s straight off the board or into the hole.
        if (end_falls && their_count == 4)
          out.push_back(UnMove{Position{them | bit(s), p.me, p.hole}, move});
        continue;
      }
      if (!(them & bit(run[0]))) continue;  // the moved piece is theirs
      // Shift the first n pieces of the run back one step (the chain stopped on an empty square).
      // A chain of two or more whose front piece is mine would have left a push-back forbidden,
      // so with no forbidden move only the others qualify.
      Bits mine_prev = them, yours_prev = p.me;  // "mine" = theirs, the previous mover's
      for (int n = 1; n <= r; ++n) {
        const int from = run[n - 1], to = n == 1 ? s : run[n - 2];
        const bool theirs = (them & bit(from)) != 0;
        Bits& side = theirs ? mine_prev : yours_prev;
        side = (side & ~bit(from)) | bit(to);
        if (n == 1 || theirs) out.push_back(UnMove{Position{mine_prev, yours_prev, p.hole}, move});
      }
      // Or the chain was one piece longer and its front piece went off the board or into the hole.
      if (end_falls) {
        const int lost = run[r - 1];  // where the removed piece stood (now vacated by the shift)
        if (their_count == 4)
          out.push_back(UnMove{Position{mine_prev | bit(lost), yours_prev, p.hole}, move});
        if (my_count == 4)
          out.push_back(UnMove{Position{mine_prev, yours_prev | bit(lost), p.hole}, move});
      }
    }
  }
}

// --- Text forms ---------------------------------------------------------------------------

std::string to_text(const Position& p) {
  std::string s;
  for (int r = 0; r < 5; ++r) {
    if (r) s += '-';
    for (int f = 0; f < 5; ++f) {
      const int q = square_at(f, r);
      s += q == p.hole ? '3' : (p.me & bit(q)) ? '1' : (p.opp & bit(q)) ? '2' : '0';
    }
  }
  return s;
}

std::string square_name(int s) {
  return std::string(1, static_cast<char>('a' + file_of(s))) + static_cast<char>('1' + rank_of(s));
}

std::string move_name(Move m) { return square_name(m.square) + kDirLetter[m.dir]; }

std::optional<Move> parse_move(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<Move> {
    if (error)
      *error = "bad move '" + std::string(text) + "': " + why +
               " (expected e.g. e3L: file a-e, rank 1-5, U/D/L/R)";
    return std::nullopt;
  };
  if (text.size() != 3) return fail("expected 3 characters");
  const char f = text[0], r = text[1];
  if (f < 'a' || f > 'e') return fail("file must be a-e");
  if (r < '1' || r > '5') return fail("rank must be 1-5");
  int d = -1;
  for (int k = 0; k < kDirs; ++k)
    if (text[2] == kDirLetter[k] || text[2] == kDirLetter[k] + ('a' - 'A')) d = k;
  if (d < 0) return fail("direction must be U, D, L or R");
  return Move{static_cast<std::uint8_t>(square_at(f - 'a', r - '1')), static_cast<std::uint8_t>(d)};
}

std::optional<Position> parse_position(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<Position> {
    if (error) *error = "bad board '" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  std::string digits;
  if (text.size() == 29) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (i % 6 == 5) {
        if (text[i] != '-')
          return fail("expected '-' between ranks at character " + std::to_string(i + 1));
      } else {
        digits += text[i];
      }
    }
  } else if (text.size() == 25) {
    digits = std::string(text);
  } else {
    return fail(
        "wrong length " + std::to_string(text.size()) +
        " (expected 5 ranks of 5 digits separated by '-', e.g. 11111-00000-00300-00000-22222)");
  }
  Position p;
  int holes = 0;
  for (int i = 0; i < 25; ++i) {
    const int r = i / 5, f = i % 5, q = square_at(f, r);
    switch (digits[i]) {
      case '0':
        break;
      case '1':
        p.me |= bit(q);
        break;
      case '2':
        p.opp |= bit(q);
        break;
      case '3':
        p.hole = q;
        ++holes;
        break;
      default:
        return fail(std::string("bad digit '") + digits[i] + "' on " + square_name(q) +
                    " (use 0 empty, 1 side to move, 2 opponent, 3 hole)");
    }
  }
  if (holes == 0) return fail("no hole (one '3' is needed)");
  if (holes > 1) return fail(std::to_string(holes) + " holes (exactly one '3' is needed)");
  const int mine = p.my_count(), theirs = p.opp_count();
  if (mine == 3 || theirs == 3)
    return fail(std::string("game already over: the ") + (mine == 3 ? "side to move" : "opponent") +
                " has 3 pieces left");
  if (mine < 4 || mine > 5)
    return fail("the side to move has " + std::to_string(mine) + " pieces (must be 4 or 5)");
  if (theirs < 4 || theirs > 5)
    return fail("the opponent has " + std::to_string(theirs) + " pieces (must be 4 or 5)");
  return p;
}

std::optional<std::pair<Position, int>> parse_state(std::string_view text, std::string* error) {
  if (names_the_start(text)) return std::pair{start_position(), kNoForbidden};
  const auto colon = text.find(':');
  auto p = parse_position(text.substr(0, colon), error);
  if (!p) return std::nullopt;
  if (colon == std::string_view::npos) {
    if (has_plain_producer(*p)) return std::pair{*p, kNoForbidden};
    if (error)
      *error =
          "no previous ply can leave " + to_text(*p) +
          " with nothing forbidden (no piece of the "
          "opponent stands next to an empty square it could have come from): give the forbidden "
          "move after ':'";
    return std::nullopt;
  }
  auto m = parse_move(text.substr(colon + 1), error);
  if (!m) return std::nullopt;
  const int code = forbid_of(*m);
  for (int c : reachable_forbid_codes(*p))
    if (c == code) return std::pair{*p, code};
  if (error)
    *error = "forbidden move " + move_name(*m) +
             " could not have been caused by the previous ply (only moving the hole back onto an "
             "empty square, "
             "or pushing back a run that ends in an opponent piece before an empty square, can be "
             "forbidden)";
  return std::nullopt;
}

std::string state_to_text(const Position& p, int forbid) {
  std::string s = to_text(p);
  if (forbid != kNoForbidden) s += ":" + move_name(forbidden_move(forbid));
  return s;
}

std::string diagram(const Position& p, int forbid) {
  std::ostringstream os;
  os << "   a b c d e\n";
  for (int r = 0; r < 5; ++r) {
    os << ' ' << r + 1 << ' ';
    for (int f = 0; f < 5; ++f) {
      const int q = square_at(f, r);
      os << ' ' << (q == p.hole ? '#' : (p.me & bit(q)) ? 'x' : (p.opp & bit(q)) ? 'o' : '.');
    }
    os << '\n';
  }
  os << "x to move (" << p.my_count() << " pieces), o has " << p.opp_count() << "; ";
  if (forbid == kNoForbidden)
    os << "no forbidden move";
  else
    os << "forbidden: " << move_name(forbidden_move(forbid));
  os << "\n" << state_to_text(p, forbid) << "\n";
  return os.str();
}

}  // namespace zermelo::ostle
