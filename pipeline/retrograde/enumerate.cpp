// Step 1: the states of a tier, sorted and unique, as a run (keys.run): enumerate -> sort ->
// dedupe, or straight to the run when the game enumerates in key order (its order checked).
// A game that cuts its enumeration into parts has them walked on all threads (parts_walk.hpp).
// Under MPI a rank of a game with un-moves enumerates only its own key range
// (enumerate_ranks.cpp).
#include <stdexcept>
#include <string>

#include "pipeline/retrograde/key_walk.hpp"
#include "pipeline/retrograde/parts_walk.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// --max-states for a game that cannot count its states up front (Game::count_states): the
// enumeration stops at the first state over the limit, before any level is solved.
void stop_at_the_state_over_the_limit(const SolveState& s, std::uint64_t n) {
  if (s.opt.max_states == 0 || n <= s.opt.max_states) return;
  throw std::invalid_argument(s.game.name() + " tier " + s.opt.tier + ": more than --max-states " +
                              std::to_string(s.opt.max_states) +
                              " states (the enumeration stopped there)");
}

// Calls use(k) for every state of the walk, counted against --max-states, with a progress bar.
template <class Use>
void each_state(const SolveState& s, const StateWalk& walk, Use use) {
  Progress bar("enumerate " + s.game.name() + " " + s.opt.tier);
  std::uint64_t n = 0;
  walk([&](StateKey k) {
    use(k);
    stop_at_the_state_over_the_limit(s, ++n);
    if ((n & 0xFFFF) == 0) bar.add(0x10000);
  });
}

RunInfo states_in_key_order(const SolveState& s, const StateWalk& walk,
                            const std::string& out_path) {
  RunWriter out(out_path, run_options<std::uint64_t>());
  std::uint64_t prev = 0, n = 0;
  each_state(s, walk, [&](StateKey k) {
    if (n++ > 0 && k <= prev)
      throw std::logic_error(s.game.name() + ": enumerate promised increasing keys but emitted " +
                             std::to_string(k) + " after " + std::to_string(prev));
    out.push(k), prev = k;
  });
  return out.finish();
}

RunInfo states_sorted(const SolveState& s, const StateWalk& walk, const std::string& out_path) {
  ExternalSorter<std::uint64_t> keys(sort_options(s, Sorter::enumerate));
  each_state(s, walk, [&](StateKey k) { keys.push(k); });
  keys.sort();
  return write_unique_keys(s, keys, out_path);
}

}  // namespace

RunInfo write_unique_keys(const SolveState& s, ExternalSorter<std::uint64_t>& keys,
                          const std::string& path) {
  RunWriter out(path, run_options<std::uint64_t>());
  std::uint64_t k, prev = 0, n = 0;
  while (keys.next(k)) {
    if (n++ > 0 && k == prev)
      throw std::logic_error(s.game.name() + ": enumerate emitted state " + std::to_string(k) +
                             " twice");
    out.push(k), prev = k;
  }
  return out.finish();
}

RunInfo walk_to_sorted_run(const SolveState& s, const StateWalk& walk, bool in_key_order,
                           const std::string& path) {
  return in_key_order ? states_in_key_order(s, walk, path) : states_sorted(s, walk, path);
}

void enumerate_states(SolveState& s, bool needed) {
  needed = needed && !s.done(Stage::enumerate());
  if (s.clustered() && !s.reverse_edges()) return enumerate_own_keys(s, needed);
  if (!needed) return;
  const StateWalk whole =
      parts_walk(s.game, s.opt.tier, 0, s.game.enumeration_parts(s.opt.tier), s.opt.threads);
  s.record(Stage::enumerate(), {walk_to_sorted_run(s, whole, s.game.enumerates_in_key_order(),
                                                   s.files.path(Run::keys))});
}

}  // namespace zermelo::retro
