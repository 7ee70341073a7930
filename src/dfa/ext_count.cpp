// Counting the strings of an external set bottom-up (include/zermelo/dfa/ext_count.hpp).
#include "zermelo/dfa/ext_count.hpp"

#include <vector>

namespace zermelo::dfa {
namespace {

bool fits(const ExtDfa& set, std::uint64_t memory_bytes) {
  for (std::size_t i = 0; i < set.states.size(); ++i) {
    const std::uint64_t below = i + 1 < set.states.size() ? set.states[i + 1] : 0;
    if ((set.states[i] + below) * sizeof(std::uint64_t) > memory_bytes) return false;
  }
  return true;
}

// The counts of layer `layer`'s states from those of the layer below (on the last layer a child
// 1 is the accepting state). False on overflow.
bool count_layer(const ExtDfa& set, unsigned layer, const std::vector<std::uint64_t>& below,
                 std::vector<std::uint64_t>& out) {
  const bool last = layer + 1 == set.length();
  std::vector<std::uint32_t> children(set.alphabet[layer]);
  ExtLayerReader reader(set, layer);
  out.clear();
  out.reserve(set.states[layer]);
  while (reader.next(children.data())) {
    std::uint64_t n = 0;
    for (const std::uint32_t c : children) {
      if (c == 0) continue;
      if (__builtin_add_overflow(n, last ? 1 : below[c - 1], &n)) return false;
    }
    out.push_back(n);
  }
  return true;
}

}  // namespace

std::optional<std::uint64_t> ext_count(const ExtDfa& set, std::uint64_t memory_bytes) {
  if (set.empty()) return 0;
  if (!fits(set, memory_bytes)) return std::nullopt;
  std::vector<std::uint64_t> below, here;
  for (unsigned layer = set.length(); layer-- > 0;) {
    if (!count_layer(set, layer, below, here)) return std::nullopt;
    below.swap(here);
  }
  return below.at(0);
}

}  // namespace zermelo::dfa
