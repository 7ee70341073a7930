// Step 1: the states of a tier, sorted and unique, as a run (keys.run): enumerate -> sort ->
// dedupe, or straight to the run when the game enumerates in key order (its order checked).
#include <stdexcept>
#include <string>

#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// --max-states for a game that cannot count its states up front (Game::count_states): the
// enumeration stops at the first state over the limit, before any level is solved.
void refuse_states_over_the_limit(const SolveState& s, std::uint64_t n) {
  if (s.opt.max_states == 0 || n <= s.opt.max_states) return;
  throw std::invalid_argument(s.game.name() + " tier " + s.opt.tier + ": more than --max-states " +
                              std::to_string(s.opt.max_states) +
                              " states (the enumeration stopped there)");
}

// Calls use(k) for every state of the tier, counted against --max-states, with a progress bar.
template <class Use>
void each_state(const SolveState& s, Use use) {
  Progress bar("enumerate " + s.game.name() + " " + s.opt.tier);
  std::uint64_t n = 0;
  s.game.enumerate(s.opt.tier, [&](StateKey k) {
    use(k);
    refuse_states_over_the_limit(s, ++n);
    if ((n & 0xFFFF) == 0) bar.add(0x10000);
  });
}

RunInfo states_in_key_order(const SolveState& s, const std::string& out_path) {
  RunWriter out(out_path, run_options<std::uint64_t>());
  std::uint64_t prev = 0, n = 0;
  each_state(s, [&](StateKey k) {
    if (n++ > 0 && k <= prev)
      throw std::logic_error(s.game.name() + ": enumerate promised increasing keys but emitted " +
                             std::to_string(k) + " after " + std::to_string(prev));
    out.push(k), prev = k;
  });
  return out.finish();
}

RunInfo states_sorted(const SolveState& s, const std::string& out_path) {
  ExternalSorter<std::uint64_t> keys(sort_options(s, Sorter::enumerate));
  each_state(s, [&](StateKey k) { keys.push(k); });
  keys.sort();
  RunWriter out(out_path, run_options<std::uint64_t>());
  std::uint64_t k, prev = 0, n = 0;
  while (keys.next(k)) {
    if (n++ > 0 && k == prev)
      throw std::logic_error(s.game.name() + ": enumerate emitted state " + std::to_string(k) +
                             " twice");
    out.push(k), prev = k;
  }
  return out.finish();
}

}  // namespace

void enumerate_states(SolveState& s) {
  if (s.done(Stage::enumerate())) return;
  const std::string keys = s.files.path(Run::keys);
  s.record(Stage::enumerate(), {s.game.enumerates_in_key_order() ? states_in_key_order(s, keys)
                                                                 : states_sorted(s, keys)});
}

}  // namespace zermelo::retro
