// The one place a board size known at run time becomes the template argument N.
//
// Why: the engine is templated on the board size (bitboard.hpp: every mask and shift is a
// constant), while a command line or a proof file names the size at run time. Every entry point
// that takes a runtime size goes through `with_board_size`, so there is one switch in the tree and
// one error message for a size Othello is not played on.
#pragma once
#include <stdexcept>
#include <string>
#include <type_traits>

namespace zermelo::othello {

// Throws std::invalid_argument unless size is 4, 6 or 8.
inline void check_board_size(int size) {
  if (size != 4 && size != 6 && size != 8)
    throw std::invalid_argument("othello: board size must be 4, 6 or 8, not " +
                                std::to_string(size));
}

// Calls f(std::integral_constant<int, N>{}) with N = size; use `decltype(n)::value` inside.
template <class F>
decltype(auto) with_board_size(int size, F&& f) {
  check_board_size(size);
  if (size == 4) return f(std::integral_constant<int, 4>{});
  if (size == 6) return f(std::integral_constant<int, 6>{});
  return f(std::integral_constant<int, 8>{});
}

}  // namespace zermelo::othello
