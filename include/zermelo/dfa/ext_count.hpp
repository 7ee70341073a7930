// The number of strings in an external set (ext_dfa.hpp), for the solver's per-ply tables.
//
// The in-RAM Set counts in one walk over its table; an external set has no table, so the count
// is one streaming pass over its layers from the last up, each state's count the sum of its
// children's. It keeps the counts of two adjacent layers in RAM (8 bytes a state), so a set
// whose widest pair of layers would not fit the given bytes is not counted.
#pragma once
#include <cstdint>
#include <optional>

#include "zermelo/dfa/ext_dfa.hpp"

namespace zermelo::dfa {

// The strings of `set`, or nothing if two adjacent layers' counts need more than memory_bytes
// or the count passes 2^64 - 1.
std::optional<std::uint64_t> ext_count(const ExtDfa& set, std::uint64_t memory_bytes);

}  // namespace zermelo::dfa
