// Small-board Ostle under the published solver's reading of the repetition rule (see
// zermelo/games/ostle/mini.hpp and published.hpp): boards exactly, previous boards by
// symmetry class.
#include <algorithm>
#include <map>

#include "zermelo/games/ostle/mini.hpp"

namespace zermelo::ostle::mini {

Board Rules::transformed(const Board& b, int g) const {
  Board t;
  const auto& image = image_[static_cast<std::size_t>(g)];
  for (int s = 0; s < squares(); ++s) t.cell[image[s]] = b.cell[s];
  t.hole = image[b.hole];
  return t;
}

StateKey Rules::class_key(const Board& b) const {
  StateKey best = key(b, kNoForbid);
  for (int g = 1; g < symmetries(); ++g) best = std::min(best, key(transformed(b, g), kNoForbid));
  return best;
}

namespace {
// The first move of b (fixed order) reaching each class, for moves that keep every piece (a
// board that precedes b has at least b's pieces, so a removal never reaches one).
std::map<StateKey, int> first_move_by_class(const Rules& r, const Board& b) {
  std::map<StateKey, int> first;
  const int pieces = r.count(b, kMine) + r.count(b, kTheirs);
  for (const MiniMove& m : r.legal_moves(b, kNoForbid)) {
    const Played p = r.play(b, m);
    if (p.outcome != MoveOutcome::kContinues) continue;
    if (r.count(p.next, kMine) + r.count(p.next, kTheirs) != pieces) continue;
    first.emplace(r.class_key(p.next), m.forbid());  // keeps the first
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
int code_of(const Rules& r, const std::map<StateKey, int>& first, const Board& prev) {
  const auto it = first.find(r.class_key(prev));
  return it == first.end() ? kNoForbid : it->second;
}
}  // namespace

int Rules::published_forbid(const Board& next, const Board& prev) const {
  return code_of(*this, first_move_by_class(*this, next), prev);
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
