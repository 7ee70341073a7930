// What the manager's source files share and nobody else needs: the dead layer's mark, the
// children array of a state under construction, the exception that unwinds an operation when
// the node table is full (caught by Manager::run, which collects garbage and tries again), and
// the hash of a state.
#pragma once
#include <array>
#include <cstdint>

#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa::detail {

inline constexpr std::uint16_t kDeadLayer = 0xFFFF;
inline constexpr unsigned kMaxArity = 32;
using Kids = std::array<NodeId, kMaxArity>;

struct TableFull {};

inline std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// The unique table's hash of a state: its layer and children.
inline std::uint64_t hash_node(unsigned layer, const NodeId* kids, unsigned arity) {
  std::uint64_t h = layer * 0x9E3779B97F4A7C15ULL;
  for (unsigned c = 0; c < arity; ++c) h = mix(h ^ (kids[c] + 0x632BE59BD9B4E019ULL * (c + 1)));
  return h;
}

}  // namespace zermelo::dfa::detail
