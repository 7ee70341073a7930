// The endgame solver's counts by number of empties: where the nodes are, how often a node's first
// move refutes, what each cut-off answers, what the ordering searches cost.
//
// Why: every tuning of the solver starts from these figures (a change of move ordering shows in
// the first-move refutations at 8-13 empties long before it shows in the total), and a researcher
// comparing solvers needs the node distribution, not one number. The node counter itself is kept
// by empties (the total is the sum); with the other counts, about 1 % of the solver's CPU.
#pragma once
#include <array>
#include <cstdint>

namespace zermelo::othello {

struct EmptiesCounts {
  // Positions searched with this many empties: every node of `SolveResult::nodes`, counted where
  // it is counted (a pass is not a node of its own; a table answer is not a node).
  std::uint64_t nodes = 0;
  // Null-window nodes of 7 empties and more whose moves were searched, and of them those refuted
  // (a move scored above alpha: cut nodes) and those refuted by the first move tried.
  std::uint64_t searched = 0;
  std::uint64_t refuted = 0;
  std::uint64_t refuted_first = 0;
  std::uint64_t table_cuts = 0;       // answered by the table's bounds before any move
  std::uint64_t etc_cuts = 0;         // by a child's bound in the table (enhanced cut-off)
  std::uint64_t stability_tries = 0;  // stability cut-offs tried, and taken
  std::uint64_t stability_cuts = 0;
  std::uint64_t ordering_nodes = 0;  // positions the ordering searches visited for these nodes

  EmptiesCounts& operator+=(const EmptiesCounts& o) {
    nodes += o.nodes, searched += o.searched, refuted += o.refuted;
    refuted_first += o.refuted_first, table_cuts += o.table_cuts, etc_cuts += o.etc_cuts;
    stability_tries += o.stability_tries, stability_cuts += o.stability_cuts;
    ordering_nodes += o.ordering_nodes;
    return *this;
  }
  bool any() const { return nodes || table_cuts || stability_tries || ordering_nodes; }
};

struct SearchStats {
  static constexpr int kMaxEmpties = 64;
  std::array<EmptiesCounts, kMaxEmpties + 1> by_empties{};

  EmptiesCounts& at(int empties) { return by_empties[static_cast<std::size_t>(empties)]; }
  const EmptiesCounts& at(int empties) const {
    return by_empties[static_cast<std::size_t>(empties)];
  }
  std::uint64_t nodes() const {
    std::uint64_t total = 0;
    for (const EmptiesCounts& c : by_empties) total += c.nodes;
    return total;
  }
  std::uint64_t ordering_nodes() const {
    std::uint64_t total = 0;
    for (const EmptiesCounts& c : by_empties) total += c.ordering_nodes;
    return total;
  }
  SearchStats& operator+=(const SearchStats& o) {
    for (std::size_t i = 0; i < by_empties.size(); ++i) by_empties[i] += o.by_empties[i];
    return *this;
  }
};

}  // namespace zermelo::othello
