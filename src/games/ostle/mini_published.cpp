// Small-board Ostle under the published solver's reading of the repetition rule (see
// zermelo/games/ostle/mini.hpp and published.hpp): boards exactly, previous boards by
// symmetry class.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "zermelo/games/ostle/mini.hpp"

namespace zermelo::ostle::mini {

StateKey Rules::image_key(const Board& b, int g) const {
  const auto& image = image_[static_cast<std::size_t>(g)];
  StateKey k = 0;
  for (int s = 0; s < squares(); ++s) k |= StateKey{b.cell[s]} << (2 * image[s]);
  return k << kCodeBits;
}

// Each image's key from b's cells, without building the image: class_key is most of the
// published reading's CPU.
StateKey Rules::class_key(const Board& b) const {
  StateKey best = key(b, kNoForbid);
  for (int g = 1; g < symmetries(); ++g) best = std::min(best, image_key(b, g));
  return best;
}

namespace {
// A board has a few dozen moves at most: its classes in a list searched in order, not a map.
using FirstMoves = std::vector<std::pair<StateKey, int>>;  // (class, 1 + move), classes distinct

const int* find_class(const FirstMoves& first, StateKey cls) {
  for (const auto& [c, code] : first)
    if (c == cls) return &code;
  return nullptr;
}

// The first move of b (fixed order) reaching each class, for moves that keep every piece (a
// board that precedes b has at least b's pieces, so a removal never reaches one).
FirstMoves first_move_by_class(const Rules& r, const Board& b) {
  FirstMoves first;
  const int pieces = r.count(b, kMine) + r.count(b, kTheirs);
  for (const MiniMove& m : r.legal_moves(b, kNoForbid)) {
    const Played p = r.play(b, m);
    if (p.outcome != MoveOutcome::kContinues) continue;
    if (r.count(p.next, kMine) + r.count(p.next, kTheirs) != pieces) continue;
    const StateKey cls = r.class_key(p.next);
    if (!find_class(first, cls)) first.emplace_back(cls, m.forbid());  // keeps the first
  }
  return first;
}

// Every board some move turns into b, whether or not b's mover can recreate it exactly.
std::vector<UnMove> producers(const Rules& r, const Board& b) {
  std::vector<UnMove> all = r.unmoves(b, kNoForbid);
  for (int f : r.reachable_forbids(b))
    if (f != kNoForbid)
      for (const UnMove& u : r.unmoves(b, f)) all.push_back(u);
  return all;
}

// The code a move from `prev` into b leaves, given b's first move by class.
int code_of(const Rules& r, const FirstMoves& first, const Board& prev) {
  const int* code = find_class(first, r.class_key(prev));
  return code ? *code : kNoForbid;
}
}  // namespace

// The same code as code_of(first_move_by_class(next), prev), more cheaply: a result is in prev's
// class exactly when it is one of prev's images, so a move costs one key, compared with prev's
// images (made once), instead of its result's class, and the moves after the first match are
// not played. The moves that map leaves out (removals) change the number of pieces: with as many
// pieces in prev as in next no removal's result is one of prev's images, and with another number
// only removals could be.
int Rules::published_forbid(const Board& next, const Board& prev) const {
  auto pieces = [&](const Board& b) { return count(b, kMine) + count(b, kTheirs); };
  if (pieces(prev) != pieces(next)) return kNoForbid;
  std::array<StateKey, 8> like_prev{};
  const int n = symmetries();
  for (int g = 0; g < n; ++g) like_prev[static_cast<std::size_t>(g)] = image_key(prev, g);
  for (const MiniMove& m : legal_moves(next, kNoForbid)) {
    const Played p = play(next, m);
    if (p.outcome != MoveOutcome::kContinues) continue;
    const StateKey k = key(p.next, kNoForbid);
    if (std::find(like_prev.begin(), like_prev.begin() + n, k) != like_prev.begin() + n)
      return m.forbid();
  }
  return kNoForbid;
}

std::vector<int> Rules::published_forbids(const Board& b) const {
  const auto first = first_move_by_class(*this, b);
  std::vector<int> out;
  for (const UnMove& u : producers(*this, b)) out.push_back(code_of(*this, first, u.prev));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<UnMove> Rules::published_unmoves(const Board& b, int forbid) const {
  const auto first = first_move_by_class(*this, b);
  std::vector<UnMove> out;
  for (const UnMove& u : producers(*this, b))
    if (code_of(*this, first, u.prev) == forbid) out.push_back(u);
  return out;
}

}  // namespace zermelo::ostle::mini
