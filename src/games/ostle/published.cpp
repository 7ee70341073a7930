// The published solver's reading of the repetition rule (see published.hpp).
#include "zermelo/games/ostle/published.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <vector>

namespace zermelo::ostle {

// True when `diff` lies on at most two lines (files or ranks). Without loops or arrays: it runs
// seven times for every child keyed near a symmetry test (near_symmetric).
bool within_two_lines(Bits diff) {
  if (std::popcount(diff) > 10) return false;
  // The ranks of diff's squares on each file, as 5 bits.
  const Bits f0 = diff & 31u, f1 = (diff >> 5) & 31u, f2 = (diff >> 10) & 31u,
             f3 = (diff >> 15) & 31u, f4 = (diff >> 20) & 31u;
  const int files = (f0 != 0) + (f1 != 0) + (f2 != 0) + (f3 != 0) + (f4 != 0);
  const Bits ranks = f0 | f1 | f2 | f3 | f4;
  if (files <= 2 || std::popcount(ranks) <= 2) return true;
  // One file and one rank: the squares off some file f lie on one rank.
  const auto one_rank = [](Bits r) { return (r & (r - 1)) == 0; };
  const Bits right2 = f3 | f4, left2 = f0 | f1;
  return one_rank(f1 | f2 | right2) || one_rank(f0 | f2 | right2) || one_rank(left2 | right2) ||
         one_rank(left2 | f2 | f4) || one_rank(left2 | f2 | f3);
}

namespace {

// Bit g set when symmetry g takes square `from` to square `to`.
unsigned hole_maps(int from, int to) {
  static const auto table = [] {
    std::array<std::array<unsigned, kSquares>, kSquares> t{};
    for (int g = 0; g < kSymmetries; ++g)
      for (int s = 0; s < kSquares; ++s) t[s][sym_square(g, s)] |= 1u << g;
    return t;
  }();
  return table[from][to];
}

// The results of c's moves that keep every piece, in move order, each with 1 + the first move
// reaching its symmetry class. A removal is left out: a position that can precede c has at
// least c's pieces, so a result with fewer is never congruent to one.
struct Results {
  std::array<Position, 24> next{};
  std::array<std::uint8_t, 24> move{};  // the move's own code
  std::array<std::uint8_t, 24> code{};  // its class's first move's code
  std::array<Position, 24> canon{};     // its canonical position
  int size = 0;
  // Every image of every result by a symmetry other than the identity with its hole on c's hole
  // square, with the result's class code: the positions before c that keep the hole and that c
  // cannot recreate exactly are matched against these.
  std::vector<std::pair<Position, std::uint8_t>> on_hole;
};

Results results_of(const Position& c) {
  Results rs;
  rs.on_hole.reserve(48);
  auto& canon = rs.canon;
  for (const Move& m : legal_moves(c, kNoForbidden)) {
    const MoveResult r = apply_move(c, m);
    if (r.removed >= 0) continue;
    const int i = rs.size++;
    rs.next[i] = r.next;
    rs.move[i] = rs.code[i] = static_cast<std::uint8_t>(forbid_of(m));
    for (unsigned g = hole_maps(r.next.hole, c.hole) & ~1u; g; g &= g - 1)
      rs.on_hole.push_back({sym_position(std::countr_zero(g), r.next), 0});
    canon[i] = canonical_position(r.next).pos;
    for (int j = 0; j < i; ++j)
      if (canon[j] == canon[i]) {
        rs.code[i] = rs.code[j];
        break;
      }
  }
  // Class codes for the images, in the order they were made (the results' order).
  std::size_t k = 0;
  for (int i = 0; i < rs.size; ++i)
    for (unsigned g = hole_maps(rs.next[i].hole, c.hole) & ~1u; g; g &= g - 1)
      rs.on_hole[k++].second = rs.code[i];
  return rs;
}

// The class code of a position before c that has its hole where c has it, or none.
int class_code_on_hole(const Results& rs, const Position& p) {
  for (const auto& [image, code] : rs.on_hole)
    if (image == p) return code;
  return kNoForbidden;
}

// The code of p's class among the results, or none: p is congruent to a result exactly when a
// symmetry taking the result's hole to p's hole takes the result to p (no canonical form of p).
int class_code(const Results& rs, const Position& p) {
  for (int i = 0; i < rs.size; ++i)
    for (unsigned g = hole_maps(rs.next[i].hole, p.hole); g; g &= g - 1)
      if (sym_position(std::countr_zero(g), rs.next[i]) == p) return rs.code[i];
  return kNoForbidden;
}

// The same for a position given by its canonical form (no symmetry to try).
int class_code_of_canonical(const Results& rs, const Position& canonical) {
  for (int i = 0; i < rs.size; ++i)
    if (rs.canon[i] == canonical) return rs.code[i];
  return kNoForbidden;
}

// True when a symmetry other than the identity takes c to a board that differs from c on at
// most two lines. Otherwise no two moves of c give congruent results, and no board before c is
// congruent to a result of c's moves unless it is that result exactly: each of those boards
// differs from c on the line of its move only (a move changes squares along one line), so a
// congruence g between two of them would make c and g(c) differ on two lines at most. Then a
// result's class code is its own move's code and a board before c has its exact code.
bool near_symmetric(const Position& c) {
  for (int g = 1; g < kSymmetries; ++g) {
    const Position image = sym_position(g, c);
    const Bits diff = (c.me ^ image.me) | (c.opp ^ image.opp) | (bit(c.hole) ^ bit(image.hole));
    if (within_two_lines(diff)) return true;
  }
  return false;
}

// The code of prev's class for a canonical c far from symmetric, prev being a board before c or
// a result of c's moves: the move of c whose result is prev (carried into c's frame), if any,
// since no other result can be congruent to such a board (near_symmetric).
int exact_class_code(const CanonicalPosition& c, const Position& prev) {
  const Position before = sym_position(std::countr_zero(c.achieving), prev);
  for (const Move& m : legal_moves(c.pos, kNoForbidden))
    if (apply_move(c.pos, m).next == before) return forbid_of(m);
  return kNoForbidden;
}

}  // namespace

Key published_child_key(const Position& next, const Position& prev) {
  const CanonicalPosition cp = canonical_position(next);
  int code = kNoForbidden;
  if (std::popcount(prev.pieces()) == std::popcount(next.pieces()))  // no removal: C can go back
    code =
        near_symmetric(cp.pos) ? class_code(results_of(cp.pos), prev) : exact_class_code(cp, prev);
  return make_key(class_of(cp.pos), PositionIndex::get().rank(cp.pos), code);
}

Key published_child_key(const MoveResult& r, const Position& prev) {
  const Canonical c = canonicalize(r.next, r.next_forbid);
  if (near_symmetric(c.pos)) return published_child_key(r.next, prev);
  return make_key(class_of(c.pos), PositionIndex::get().rank(c.pos), c.forbid);
}

namespace {

// True when some image in rs.on_hole differs from c (seen from the other side) on one rank or
// one file only, as a position that precedes c by a piece move does: only then can a position
// before c with no exact undo be congruent to a result of c's moves. Most boards have none.
bool some_image_near(const Results& rs, const Position& c) {
  static const auto lines = [] {
    std::array<Bits, 10> l{};
    for (int s = 0; s < kSquares; ++s) l[file_of(s)] |= bit(s), l[5 + rank_of(s)] |= bit(s);
    return l;
  }();
  for (const auto& image : rs.on_hole) {
    const Bits diff = (image.first.me ^ c.opp) | (image.first.opp ^ c.me);
    if (std::popcount(diff) > 5) continue;  // a line has five squares
    for (Bits line : lines)
      if (!(diff & ~line)) return true;
  }
  return false;
}

// published_codes the long way: every result of c's moves, its class code, and the boards
// before c that c cannot recreate exactly matched against the results' images.
ForbidList codes_by_results(const Position& c) {
  const Results rs = results_of(c);
  bool none = has_plain_producer(c);
  std::array<bool, kForbidCodes> has{};
  if (some_image_near(rs, c)) {
    // Positions that precede c by a move that cannot be undone exactly: a move of c may still
    // reach a mirror image of one of them, and then that move is the forbidden one.
    none = false;
    thread_local std::vector<UnMove> un;
    unmoves(c, kNoForbidden, un);
    for (const UnMove& u : un) {  // piece moves: the hole stayed where it is
      const int code = class_code_on_hole(rs, u.prev);
      if (code == kNoForbidden)
        none = true;
      else
        has[static_cast<std::size_t>(code)] = true;
    }
  }
  // Positions the exact undo returns to: their class is that undo's, or an earlier move's.
  for (int f : reachable_forbid_codes(c))
    for (int i = 0; i < rs.size && f != kNoForbidden; ++i)
      if (rs.move[i] == f) has[rs.code[i]] = true;
  ForbidList out;
  if (none) out.codes[out.size++] = kNoForbidden;
  for (int f = 1; f < kForbidCodes; ++f)
    if (has[static_cast<std::size_t>(f)]) out.codes[out.size++] = static_cast<std::uint8_t>(f);
  return out;
}

}  // namespace

// Far from symmetric, the exact reading's codes: each exact undo's class code is its own, "none"
// is left exactly when some board before c has no exact undo, and no other class is reached.
ForbidList published_codes(const Position& c) {
  return near_symmetric(c) ? codes_by_results(c) : reachable_forbid_codes(c);
}

namespace {

// A canonical position P with moves into the child position C (up to symmetry). Every move of P
// into C leaves the same code, the first move of C reaching P's class, which only P's class sets.
struct ParentPosition {
  Position pos;                          // canonical
  Key base = 0;                          // its key with code none
  int code = kNoForbidden;               // the child's code its moves into C leave
  int unmoves = 0;                       // exact un-moves of C whose board is an image of P
  int stab = 1;                          // symmetries fixing P
  std::bitset<kForbidCodes> into_child;  // P's moves (its frame) with a result congruent to C
};

// Counts the un-move u of a child against its board's canonical position P in `out`; a new P
// gets the child's code its moves leave, code_of(u, P).
template <class CodeOf>
void add_unmove(const UnMove& u, const CodeOf& code_of, std::vector<ParentPosition>& out) {
  const CanonicalPosition cp = canonical_position(u.prev);
  const Key base = make_key(class_of(cp.pos), PositionIndex::get().rank(cp.pos), kNoForbidden);
  auto it =
      std::find_if(out.begin(), out.end(), [&](const ParentPosition& q) { return q.base == base; });
  if (it == out.end()) {
    const int stab = std::popcount(cp.achieving);
    it = out.insert(out.end(), ParentPosition{cp.pos, base, code_of(u, cp.pos), 0, stab, {}});
  }
  ++it->unmoves;
  const int move = forbid_of(u.move);
  for (unsigned g = cp.achieving; g; g &= g - 1)
    it->into_child.set(static_cast<std::size_t>(sym_forbid(std::countr_zero(g), move)));
}

// The parent positions of a canonical position c (checkmates left out) from every (board, move)
// giving c exactly: the exact un-moves over c's code none and every exact code, each parent's
// code found among the classes of c's results.
void collect_parent_positions(const Position& c, std::vector<ParentPosition>& out) {
  out.clear();
  const Results rs = results_of(c);
  const auto code_of = [&](const UnMove& u, const Position& canonical) {
    const bool removal = std::popcount(u.prev.pieces()) != std::popcount(c.pieces());
    return removal ? kNoForbidden : class_code_of_canonical(rs, canonical);
  };
  thread_local std::vector<UnMove> un;
  ForbidList codes = reachable_forbid_codes(c);
  if (codes.size == 0 || codes.codes[0] != kNoForbidden) {  // none's un-moves, if any, all the same
    std::copy_backward(codes.codes.begin(), codes.codes.begin() + codes.size,
                       codes.codes.begin() + codes.size + 1);
    codes.codes[0] = kNoForbidden;
    ++codes.size;
  }
  for (int f : codes) {
    unmoves(c, f, un);
    for (const UnMove& u : un)
      if (!is_checkmate(u.prev)) add_unmove(u, code_of, out);  // a checkmate's value is fixed
  }
}

// The same for the state (c, code) of a canonical position c far from symmetric: a move into c
// leaves its exact code there (near_symmetric), so the parents are that code's exact un-moves.
void collect_exact_parent_positions(const Position& c, int code, std::vector<ParentPosition>& out) {
  out.clear();
  const auto code_of = [code](const UnMove&, const Position&) { return code; };
  thread_local std::vector<UnMove> un;
  unmoves(c, code, un);
  for (const UnMove& u : un)
    if (!is_checkmate(u.prev)) add_unmove(u, code_of, out);
}

// published_codes of a canonical position, remembered: the children of a level come in key
// order, so consecutive ones share most of their mover's pieces and many of their parents.
const ForbidList& codes_remembered(const Position& pos, Key base) {
  constexpr std::size_t kSlots = std::size_t{1} << 15;
  thread_local std::vector<std::pair<Key, ForbidList>> cache(kSlots, {~Key{0}, ForbidList{}});
  auto& slot = cache[(base * 0x9E3779B97F4A7C15ull) >> 49];
  if (slot.first != base) slot = {base, published_codes(pos)};
  return slot.second;
}

}  // namespace

void published_parents(Key child, std::vector<Key>& out) {
  out.clear();
  // Step 0: the parent positions. Near symmetry, those of every state of the child's position at
  // once (its states are consecutive keys, so the last position's list serves them); otherwise
  // those of the child's own code, as in the exact reading.
  thread_local Key cached = ~Key{0};
  thread_local bool near = false;
  thread_local std::vector<ParentPosition> parents;
  thread_local int child_stab = 1;
  const auto [c, code] = key_state(child);
  if (child >> kForbidBits != cached) {
    near = near_symmetric(c);
    if (near) collect_parent_positions(c, parents);
    child_stab = near ? std::popcount(canonical_position(c).achieving) : 1;  // else no symmetry
    cached = child >> kForbidBits;
  }
  if (!near) collect_exact_parent_positions(c, code, parents);
  // Step 1: P has (un-moves from its images) * |Stab(P)| / |Stab(C)| moves into C (orbit
  // counting); its state with code k lacks one of them when k's move is one.
  for (const ParentPosition& q : parents) {
    if (q.code != code) continue;
    const int moves = q.unmoves * q.stab / child_stab;
    for (int k : codes_remembered(q.pos, q.base)) {
      const int n = moves - (k != kNoForbidden && q.into_child[static_cast<std::size_t>(k)]);
      out.insert(out.end(), static_cast<std::size_t>(n), q.base | static_cast<Key>(k));
    }
  }
}

}  // namespace zermelo::ostle
