// Perft and layer enumeration for every board size (explicitly instantiated for 4, 6, 8).
#include "zermelo/games/othello/perft.hpp"

#include <algorithm>

namespace zermelo::othello {

template <int N>
std::uint64_t perft(Bits p, Bits o, int depth, EndedGames convention) {
  if (depth == 0) return 1;
  Bits moves = legal_moves<N>(p, o);
  if (!moves) {
    if (!legal_moves<N>(o, p)) return convention == EndedGames::kStayLeaves ? 1 : 0;
    return perft<N>(o, p, depth - 1, convention);  // the pass is a ply
  }
  if (depth == 1) return static_cast<std::uint64_t>(popcount(moves));
  std::uint64_t total = 0;
  while (moves) {
    const int sq = std::countr_zero(moves);
    moves &= moves - 1;
    const Bits f = flips<N>(p, o, sq);
    total += perft<N>(o & ~f, p | f | bit(sq), depth - 1, convention);
  }
  return total;
}

template <int N>
PosKey canonical(Bits p, Bits o) {
  PosKey best{p, o};
  for (int k = 1; k < 8; ++k) {
    const PosKey t{transform<N>(p, k), transform<N>(o, k)};
    if (t < best) best = t;
  }
  return best;
}

template <int N>
std::vector<PosKey> next_layer(const std::vector<PosKey>& layer, std::vector<PosKey>* finished) {
  std::vector<PosKey> out;
  if (finished) finished->clear();
  out.reserve(layer.size() * 8);
  for (const PosKey& pos : layer) {
    Bits moves = legal_moves<N>(pos.p, pos.o);
    while (moves) {
      const int sq = std::countr_zero(moves);
      moves &= moves - 1;
      const Bits f = flips<N>(pos.p, pos.o, sq);
      const Bits np = pos.o & ~f, no = pos.p | f | bit(sq);  // the opponent moves next
      if (legal_moves<N>(np, no))
        out.push_back(canonical<N>(np, no));
      else if (legal_moves<N>(no, np))
        out.push_back(canonical<N>(no, np));  // forced pass: keep the position after it
      else if (finished)
        finished->push_back(canonical<N>(np, no));
    }
  }
  if (finished) {
    std::sort(finished->begin(), finished->end());
    finished->erase(std::unique(finished->begin(), finished->end()), finished->end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

template <int N>
std::vector<std::uint64_t> unique_positions_by_discs(int max_discs,
                                                     std::vector<PosKey>* last_layer) {
  std::vector<PosKey> layer{canonical<N>(Geometry<N>::kStartBlack, Geometry<N>::kStartWhite)};
  std::vector<std::uint64_t> counts{layer.size()};
  std::vector<PosKey> finished;
  for (int discs = 5; discs <= max_discs; ++discs) {
    layer = next_layer<N>(layer, &finished);
    counts.push_back(layer.size() + finished.size());
  }
  if (last_layer) *last_layer = std::move(layer);
  return counts;
}

#define ZERMELO_OTHELLO_INSTANTIATE(N)                                                          \
  template std::uint64_t perft<N>(Bits, Bits, int, EndedGames);                                 \
  template PosKey canonical<N>(Bits, Bits);                                                     \
  template std::vector<PosKey> next_layer<N>(const std::vector<PosKey>&, std::vector<PosKey>*); \
  template std::vector<std::uint64_t> unique_positions_by_discs<N>(int, std::vector<PosKey>*);
ZERMELO_OTHELLO_INSTANTIATE(4)
ZERMELO_OTHELLO_INSTANTIATE(6)
ZERMELO_OTHELLO_INSTANTIATE(8)
#undef ZERMELO_OTHELLO_INSTANTIATE

}  // namespace zermelo::othello
