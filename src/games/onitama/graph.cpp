// Breadth-first exploration of the reachable Onitama states (see graph.hpp).
#include "zermelo/games/onitama/graph.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace zermelo::onitama {

KeySet::KeySet(Key key_space) : key_space_(key_space), words_((key_space + 63) / 64, 0) {}

void KeySet::build_rank() {
  blocks_.assign(words_.size() / 8 + 1, 0);
  std::uint64_t total = 0;
  for (std::size_t w = 0; w < words_.size(); ++w) {
    if (w % 8 == 0) blocks_[w / 8] = total;
    total += static_cast<std::uint64_t>(std::popcount(words_[w]));
  }
  size_ = total;
}

std::uint64_t KeySet::index(Key k) const {
  const std::size_t w = k >> 6;
  std::uint64_t r = blocks_[w / 8];
  for (std::size_t i = w & ~std::size_t{7}; i < w; ++i)
    r += static_cast<std::uint64_t>(std::popcount(words_[i]));
  return r + static_cast<std::uint64_t>(
                 std::popcount(words_[w] & ((std::uint64_t{1} << (k & 63)) - 1)));
}

void child_keys(const Rules& rules, Key k, bool symmetry, std::vector<Key>& out) {
  out.clear();
  rules.for_each_child(rules.decode(k), [&](const Position& c, const Move&) {
    Key ck = rules.encode(c);
    if (symmetry) ck = std::min(ck, rules.encode(rules.swapped(c)));
    out.push_back(ck);
  });
  std::sort(out.begin(), out.end());
  if (symmetry) out.erase(std::unique(out.begin(), out.end()), out.end());
}

GraphStats explore(const Rules& rules, bool symmetry, KeySet& set) {
  const std::uint64_t bytes = rules.key_space() / 8;
  if (bytes > (std::uint64_t{3} << 30))
    throw std::invalid_argument("board " + rules.board_name() + " has a key space of " +
                                std::to_string(rules.key_space()) +
                                " keys, too large for the in-RAM explorer");
  set = KeySet(rules.key_space());
  GraphStats st;
  Key start = symmetry ? rules.canonical(rules.start()) : rules.start();
  std::vector<Key> frontier{start}, next, kids;
  set.insert(start);
  while (!frontier.empty()) {
    st.level_sizes.push_back(frontier.size());
    st.states += frontier.size();
    next.clear();
    for (Key k : frontier) {
      child_keys(rules, k, symmetry, kids);
      if (kids.empty()) ++st.terminal;  // every live state has a move or a pass
      st.edges += kids.size();
      for (Key c : kids)
        if (!set.contains(c)) next.push_back(c);  // subtracting the seen early keeps `next` small
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    for (Key c : next) set.insert(c);
    std::swap(frontier, next);
  }
  set.build_rank();
  return st;
}

}  // namespace zermelo::onitama
