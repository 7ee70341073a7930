// The boards whose state "nothing forbidden" no move produces (see unproduced.hpp).
#include "zermelo/games/ostle/unproduced.hpp"

#include <algorithm>

namespace zermelo::ostle {

std::vector<Key> unproduced_plain_states(const std::vector<int>& classes, int threads) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;
  struct Chunk {
    int cls;
    std::uint64_t lo, hi;
  };
  std::vector<Chunk> chunks;
  const PositionIndex& index = PositionIndex::get();
  for (int cls : classes)
    for (std::uint64_t lo = 0; lo < index.size(cls); lo += kChunk)
      chunks.push_back(Chunk{cls, lo, std::min(lo + kChunk, index.size(cls))});
  std::vector<std::vector<Key>> found(chunks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const Chunk& c = chunks[k];
    index.for_each(c.cls, c.lo, c.hi, [&](std::uint64_t rank, const Position& p, unsigned) {
      if (!has_plain_producer(p)) found[k].push_back(make_key(c.cls, rank, kNoForbidden));
    });
  }
  std::vector<Key> keys;
  for (const auto& f : found) keys.insert(keys.end(), f.begin(), f.end());
  std::sort(keys.begin(), keys.end());  // chunks come in class order already; classes may not
  return keys;
}

}  // namespace zermelo::ostle
