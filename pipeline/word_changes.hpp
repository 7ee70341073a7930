// Which words of a bitmap changed since they were last taken, one mark a word. The filter of
// undecided groups is held whole by every MPI rank, and after a level each rank must learn the
// groups the others closed. And-ing the whole bitmap every level cost Ostle 4v4 about half a
// second a level in its long tail, where a level closes a few groups; the ranks now send only
// the words that changed (docs/distributed.md).
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zermelo::retro {

class WordChanges {
 public:
  explicit WordChanges(std::size_t words) : marks_((words + 63) / 64, 0) {}

  // From any thread, at once (the shards' merges).
  void mark(std::size_t word) {
    std::atomic_ref<std::uint64_t>(marks_[word >> 6])
        .fetch_or(std::uint64_t{1} << (word & 63), std::memory_order_relaxed);
  }
  std::uint64_t count() const {
    std::uint64_t n = 0;
    for (std::uint64_t m : marks_) n += static_cast<std::uint64_t>(std::popcount(m));
    return n;
  }
  // The marked words of `words` as (index, value) pairs in index order; the marks cleared.
  std::vector<std::uint64_t> take(const std::uint64_t* words) {
    std::vector<std::uint64_t> pairs;
    pairs.reserve(2 * count());
    for (std::size_t i = 0; i < marks_.size(); ++i) {
      for (std::uint64_t m = marks_[i]; m != 0; m &= m - 1) {
        const std::size_t word = i * 64 + static_cast<std::size_t>(std::countr_zero(m));
        pairs.push_back(word);
        pairs.push_back(words[word]);
      }
      marks_[i] = 0;
    }
    return pairs;
  }
  void forget() { std::fill(marks_.begin(), marks_.end(), 0); }
  std::uint64_t bytes() const { return marks_.size() * sizeof(std::uint64_t); }

 private:
  std::vector<std::uint64_t> marks_;
};

}  // namespace zermelo::retro
