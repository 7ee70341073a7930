// Nim's positions, terminal sets and moves as DFA sets (zermelo/games/nim/nim_sets.hpp).
#include "zermelo/games/nim/nim_sets.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace zermelo::nim_dfa {

NimShape parse_shape(const std::string& word) {
  NimShape shape;
  char rest = 0;
  if (std::sscanf(word.c_str(), "%ux%u%c", &shape.heaps, &shape.sticks, &rest) != 2)
    throw std::invalid_argument("nim: the shape is HEAPSxSTICKS, e.g. 4x7, not '" + word + "'");
  return shape;
}

void check_shape(const NimShape& shape) {
  if (shape.heaps < 1 || shape.heaps > 24)
    throw std::invalid_argument("nim: --heaps must be 1..24, got " + std::to_string(shape.heaps));
  if (shape.sticks < 1 || shape.sticks > 31)
    throw std::invalid_argument("nim: --sticks must be 1..31, got " + std::to_string(shape.sticks));
}

std::unique_ptr<dfa::Manager> make_manager(const NimShape& shape, std::uint64_t memory_budget) {
  check_shape(shape);
  return std::make_unique<dfa::Manager>(std::vector<unsigned>(shape.heaps, shape.sticks + 1),
                                        memory_budget);
}

dfa::SetGame make_game(dfa::Manager& m, const NimShape& shape) {
  check_shape(shape);
  if (m.length() != shape.heaps || m.alphabet(0) != shape.sticks + 1)
    throw std::invalid_argument("nim: manager does not match the heap shape");
  dfa::SetGame g;
  g.name = "nim " + std::to_string(shape.heaps) + "x" + std::to_string(shape.sticks);
  g.manager = &m;
  g.all = m.universe();
  g.won0 = m.empty();
  g.lost0 = m.singleton(
      std::vector<std::uint8_t>(shape.heaps, 0));  // the previous player took the last stick
  const dfa::Set nonterminal = g.all - g.lost0;
  for (unsigned h = 0; h < shape.heaps; ++h) {
    dfa::Relabel take{h, {}};
    for (unsigned s = 1; s <= shape.sticks; ++s)
      for (unsigned t = 0; t < s; ++t)
        take.pairs.emplace_back(static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(t));
    g.add_move("heap " + std::to_string(h + 1), nonterminal, g.all, dfa::Change{{take}});
  }
  g.start.assign(shape.heaps, static_cast<std::uint8_t>(shape.sticks));
  g.render = [](const std::vector<std::uint8_t>& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i)
      out += "heap " + std::to_string(i + 1) + ": " + std::string(s[i], '|') + " (" +
             std::to_string(s[i]) + ")\n";
    return out;
  };
  return g;
}

}  // namespace zermelo::nim_dfa
