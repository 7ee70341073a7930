// Reachable states and edges from the start against the published figures of the spec (boar).
#include <gtest/gtest.h>

#include "zermelo/games/onitama/graph.hpp"

using namespace zermelo::onitama;

namespace {
GraphStats count(int w, int h, bool symmetry = false) {
  Rules rules(w, h, parse_deck("boar"));
  KeySet set;
  return explore(rules, symmetry, set);
}
}  // namespace

TEST(OnitamaGraph, PublishedCounts) {
  struct Row {
    int w, h;
    std::uint64_t states, edges;
  };
  for (Row r : {Row{1, 2, 2, 1}, Row{2, 2, 6, 5}, Row{3, 2, 658, 1007}, Row{3, 3, 59666, 168860},
                Row{2, 4, 3031, 6055}, Row{3, 4, 431793, 1569941}}) {
    GraphStats st = count(r.w, r.h);
    EXPECT_EQ(st.states, r.states) << r.w << "x" << r.h;
    EXPECT_EQ(st.edges, r.edges) << r.w << "x" << r.h;
  }
}
