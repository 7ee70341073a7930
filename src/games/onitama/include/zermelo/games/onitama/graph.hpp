// The reachable state graph of an Onitama game, explored breadth-first in RAM.
//
// The search keeps the shape the out-of-core pipeline uses: a level's frontier is expanded into
// successor keys, those are sorted and deduplicated, the states seen before are subtracted, and
// what remains is the next frontier. Here "seen" is a bit per key of the (dense) key space, which
// also serves as the dense index of the solvers: a state's index is the rank of its bit.
#pragma once
#include <cstdint>
#include <vector>

#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {

// A set of keys as a bit vector over [0, key_space) with a rank directory (index = keys below).
class KeySet {
 public:
  explicit KeySet(Key key_space = 0);
  bool contains(Key k) const { return (words_[k >> 6] >> (k & 63)) & 1; }
  void insert(Key k) { words_[k >> 6] |= std::uint64_t{1} << (k & 63); }
  void build_rank();                 // call once all keys are in; then index() works
  std::uint64_t index(Key k) const;  // number of keys < k (k must be in the set)
  std::uint64_t size() const { return size_; }
  Key key_space() const { return key_space_; }
  template <class F>
  void for_each(F&& f) const {  // keys in increasing order
    for (std::size_t w = 0; w < words_.size(); ++w)
      for (std::uint64_t b = words_[w]; b; b &= b - 1)
        f(static_cast<Key>(w * 64 + static_cast<unsigned>(__builtin_ctzll(b))));
  }
  std::uint64_t bytes() const { return words_.size() * 8 + blocks_.size() * 8; }

 private:
  Key key_space_;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint64_t> blocks_;  // keys before each 8-word block
  std::uint64_t size_ = 0;
};

struct GraphStats {
  std::uint64_t states = 0;  // reachable, terminal included
  std::uint64_t edges = 0;   // distinct (parent, child) moves
  std::uint64_t terminal = 0;
  std::vector<std::uint64_t> level_sizes;  // states first reached at each BFS depth
};

// Breadth-first from the start. With `symmetry`, every key is the smaller of a state and its
// player-swapped twin and edges join those classes. Fills `set` (rank built) and the stats.
GraphStats explore(const Rules& rules, bool symmetry, KeySet& set);

// The distinct children of a state as (canonical, if asked) keys, sorted.
void child_keys(const Rules& rules, Key k, bool symmetry, std::vector<Key>& out);

}  // namespace zermelo::onitama
