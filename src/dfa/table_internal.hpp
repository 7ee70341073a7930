// What the manager's source files share and nobody else needs: the dead layer's mark, the
// children array of a state under construction, and the exception that unwinds an operation when
// the node table is full (caught by Manager::run, which collects garbage and tries again).
#pragma once
#include <array>
#include <cstdint>

#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa::detail {

inline constexpr std::uint16_t kDeadLayer = 0xFFFF;
inline constexpr unsigned kMaxArity = 32;
using Kids = std::array<NodeId, kMaxArity>;

struct TableFull {};

}  // namespace zermelo::dfa::detail
