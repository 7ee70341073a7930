// Random-access reading of solved values, and optimal play through them.
//
// Queries, the longest win's line of play and perfect players look up a few thousand states in
// values runs of billions. ValuesLookup binary-searches a run's blocks by their first keys,
// remembering every first key it has read and the last block decoded, so it never loads a run
// whole and repeated lookups soon cost one block each. optimal_line follows the definition of
// the values: from a won state a move to a child lost one ply sooner (the winner's shortest),
// from a lost state a move to the child won in the most plies (the loser's longest).
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {

class ValuesLookup {
 public:
  // Several runs (a tier and the tiers below it); a key is looked up in each in turn.
  explicit ValuesLookup(const std::vector<std::string>& values_runs);
  // Unknown if no run holds the key.
  Value find(StateKey key);

 private:
  struct Run {
    std::unique_ptr<RunReader> reader;
    std::map<std::size_t, StateKey> first_key;  // of the blocks read so far
    std::size_t cached_block = SIZE_MAX;
    std::vector<KeyValue> cached;
  };
  const std::vector<KeyValue>& block(Run& r, std::size_t b);
  Value find_in(Run& r, StateKey key);
  std::vector<Run> runs_;
};

struct LineStep {
  StateKey key = 0;
  Value value;       // of this state, for the player to move
  std::string move;  // the move played from it ("" at the end of the line)
  Value after;       // the game's value after the move when it ends the game there
};

// The line of optimal play from `from`, until a state with a value in 0 plies, a move that ends
// the game, a draw, or max_steps moves.
std::vector<LineStep> optimal_line(const Game& game, ValuesLookup& values, StateKey from,
                                   std::size_t max_steps);

}  // namespace zermelo
