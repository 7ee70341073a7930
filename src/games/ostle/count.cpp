// Counting positions and states by class (see count.hpp).
#include "zermelo/games/ostle/count.hpp"

#include <omp.h>

#include <mutex>

#include "zermelo/games/ostle/published.hpp"

namespace zermelo::ostle {

StateCounts count_range(int cls, std::uint64_t lo, std::uint64_t hi, Reading reading) {
  StateCounts c;
  const bool can_mate = class_opp_count(cls) == 4;
  PositionIndex::get().for_each(cls, lo, hi, [&](std::uint64_t, const Position& p, unsigned stab) {
    std::uint64_t states = 0;
    bool none = false;  // one of them forbids nothing
    if (reading == Reading::kPublished) {
      const ForbidList codes = published_codes(p);
      states = codes.size;
      none = codes.size > 0 && codes.codes[0] == kNoForbidden;
    } else {
      states = static_cast<std::uint64_t>(distinct_forbid_count(p, stab));
      none = has_plain_producer(p);
    }
    const std::uint64_t forbidding = states - (none ? 1 : 0);
    const bool mate = can_mate && is_checkmate(p);
    ++c.positions;
    c.states += states;
    c.forbidding_states += forbidding;
    if (mate) {
      ++c.checkmates;
    } else {
      c.nontrivial_states += states;
      c.nontrivial_forbidding += forbidding;
    }
  });
  return c;
}

std::vector<StateCounts> count_classes(const std::vector<int>& classes, int threads,
                                       const std::function<void(std::uint64_t)>& progress,
                                       Reading reading) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;
  struct Chunk {
    std::size_t slot;
    int cls;
    std::uint64_t lo, hi;
  };
  std::vector<Chunk> chunks;
  const PositionIndex& index = PositionIndex::get();
  for (std::size_t i = 0; i < classes.size(); ++i)
    for (std::uint64_t lo = 0; lo < index.size(classes[i]); lo += kChunk)
      chunks.push_back(Chunk{i, classes[i], lo, std::min(lo + kChunk, index.size(classes[i]))});
  std::vector<StateCounts> per_chunk(chunks.size());
  std::mutex progress_lock;
  std::uint64_t done = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    per_chunk[k] = count_range(chunks[k].cls, chunks[k].lo, chunks[k].hi, reading);
    if (progress) {
      std::lock_guard<std::mutex> lock(progress_lock);
      done += chunks[k].hi - chunks[k].lo;
      progress(done);
    }
  }
  std::vector<StateCounts> out(classes.size());
  for (std::size_t k = 0; k < chunks.size(); ++k) out[chunks[k].slot] += per_chunk[k];
  return out;
}

}  // namespace zermelo::ostle
