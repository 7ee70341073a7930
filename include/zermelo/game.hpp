// The one interface between a game's rules and the game-agnostic pipeline.
//
// The pipeline (enumeration, retrograde passes, breadth-first passes, queries) only ever sees
// 64-bit state keys and the hooks below; it knows nothing of boards or moves. A game module lives
// in src/games/<game>/ and implements:
//   required: name, enumerate (every state the solver values), successors, start, render
//   optional: predecessors (un-moves; without them the engine builds a reverse-edge run),
//             tiers (independent slices solved bottom-up), exit slots (a dense numbering of
//             the lower-tier states a tier's moves reach), group slots (a coarse numbering of
//             a tier's states, for a filter of messages), parse, move names.
// The built-in verifier (verify_game_moves, tests/engine/game_verifier_test) checks that successors
// and predecessors agree for every game that provides both, in the spirit of GamesmanOne's
// per-game self-check.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zermelo/engine/value.hpp"

namespace zermelo {

// A state's key: below 2^63 (the engine packs a key and one bit into a 64-bit message).
using StateKey = std::uint64_t;

// One move out of a state: either it leads to another state (a key the game also enumerates), or
// it ends the game at once, with `terminal` the value for the player to move after it.
struct Child {
  StateKey key = 0;
  Value terminal = Value::unknown();
  // Optional, for speed: the child state's own terminal_value, when successors knows it without
  // decoding the key again (rule_known says it was given; unknown then means "none").
  Value rule = Value::unknown();
  bool rule_known = false;
  bool is_terminal() const { return terminal.is_known(); }
  static Child state(StateKey k) { return Child{k, Value::unknown()}; }
  static Child ends_game(Value for_next_mover) { return Child{0, for_next_mover}; }
  static Child state_with_rule(StateKey k, Value rule_value) { return Child{k, Value::unknown(), rule_value, true}; }
  // A child in the parent's tier whose key was not computed (successor_outcomes only).
  static constexpr StateKey kNoKey = ~StateKey{0};
  static Child unkeyed(Value rule_value) { return Child{kNoKey, Value::unknown(), rule_value, true}; }
  // A child whose key was not asked for, nor its rule value (successors_keyed_except only).
  static Child keyless() { return Child{kNoKey, Value::unknown()}; }
};

// A slice of the state space closed under moves except into tiers listed in `depends_on`.
struct Tier {
  std::string name;
  std::vector<std::string> depends_on;
};

class Game {
 public:
  virtual ~Game() = default;

  virtual std::string name() const = 0;
  // The options that make this instance (board size, cards...), e.g. "4x7"; part of a job's identity.
  virtual std::string variant() const { return ""; }

  // Calls emit for every state of `tier` (all states when the game has one tier). Order is free;
  // duplicates are not allowed. A state that is decided without looking at its moves (a terminal
  // or checkmate state) reports that value through `terminal_value`.
  virtual void enumerate(const std::string& tier, const std::function<void(StateKey)>& emit) const = 0;

  // The value of a state that is decided by the rules alone, or unknown.
  virtual Value terminal_value(StateKey s) const { (void)s; return Value::unknown(); }

  // Every legal move's outcome, in the game's fixed move order. Cleared by the caller.
  virtual void successors(StateKey s, std::vector<Child>& out) const = 0;

  // Optional, for speed: successors for a solver that only counts moves. Like successors, but a
  // child in the same tier as s may be Child::unkeyed, carrying only its rule value: with
  // un-moves the solver needs only how many moves lead where and which end at once, and skipping
  // the child's canonical key is most of the cost. Children in other tiers keep their keys.
  virtual void successor_outcomes(StateKey s, std::vector<Child>& out) const { successors(s, out); }
  // Optional: true if enumerate emits each tier's keys in increasing order (no sort needed).
  virtual bool enumerates_in_key_order() const { return false; }

  // Optional: every state with a move leading to s (with multiplicity: one entry per such move).
  // States whose terminal_value is known may be left out: no child's value can change theirs.
  virtual bool has_predecessors() const { return false; }
  virtual void predecessors(StateKey s, std::vector<StateKey>& out) const { (void)s; out.clear(); }

  // Optional: how many states enumerate(tier) emits, when the game can count them without
  // enumerating. Without it a solve too big for the disk is not refused before it starts (it
  // starts and runs out), and --max-states is checked only while the states are enumerated.
  virtual std::optional<std::uint64_t> count_states(const std::string& tier) const {
    (void)tier;
    return std::nullopt;
  }

  // Optional tiers, listed bottom-up (a tier's dependencies come before it). Default: one tier "all".
  virtual std::vector<Tier> tiers() const { return {Tier{"all", {}}}; }
  virtual std::string tier_of(StateKey s) const { (void)s; return "all"; }

  // Optional, for tiered games whose moves out of a tier reach few distinct lower-tier states: a
  // numbering of those states. With one, the solver holds their values in one in-memory array
  // while it scans the tier and settles every move into a lower tier on the spot, instead of
  // sorting one lookup per such move and merging it with the lower values (5v5 Ostle makes
  // 2.6 × 10^10 of them). exit_slot numbers states (kNoSlot: not numbered); every child in another
  // tier that successors/successor_outcomes emit for a state of `tier` must have a slot in
  // exit_slots(tier), and distinct states distinct slots. The solver checks both (an error names
  // the key) and falls back to lookups when the array does not fit its memory budget.
  struct SlotRange {
    std::uint64_t first = 0, end = 0;  // [first, end); empty: no numbering for this tier
    std::uint64_t size() const { return end - first; }
  };
  static constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};
  virtual SlotRange exit_slots(const std::string& tier) const { (void)tier; return {}; }
  virtual std::uint64_t exit_slot(StateKey s) const { (void)s; return kNoSlot; }

  // Optional, for speed: a numbering of groups of a tier's states (for Ostle, the states of one
  // position, whatever their forbidden move), in group_slots(tier) and non-decreasing in key
  // order (a group's states are consecutive keys). The solver keeps one bit a group, "some state
  // of it is still undecided", and drops the messages to groups without one before sorting them:
  // most messages of a large tier's middle levels go to states decided earlier. It checks the
  // order as it goes (an error names the key). One numbering serves all tiers (a slot names one
  // group in the whole game), so that the breadth-first search over all states filters with it too.
  virtual SlotRange group_slots(const std::string& tier) const { (void)tier; return {}; }
  virtual std::uint64_t group_slot(StateKey s) const { (void)s; return kNoSlot; }

  // Optional, for searches that expand every state once (the breadth-first search): the states of
  // a group share the group's list of moves, each state lacking at most one of them (Ostle: a
  // position's states differ only in their forbidden move). A state whose group was expanded
  // before needs keys only for the moves the earlier states lacked: the rest reach states found
  // already, and a child's key is most of a move's cost.
  virtual bool states_share_group_moves() const { return false; }
  // Like successors, but Child::keyless for each move whose index in the group's move list is in
  // `keyless` (bit i: move i; fewer than 64 moves). Returns the index of the group move s lacks,
  // or -1 if it lacks none.
  virtual int successors_keyed_except(StateKey s, std::uint64_t keyless, std::vector<Child>& out) const {
    (void)keyless;
    successors(s, out);
    return -1;
  }

  virtual StateKey start() const = 0;
  virtual std::string render(StateKey s) const = 0;  // a diagram, several lines
  virtual std::optional<StateKey> parse(std::string_view text, std::string* error) const {
    (void)text;
    if (error) *error = name() + ": parsing states is not supported";
    return std::nullopt;
  }
  // The name of the i-th move of successors(s), e.g. "e3L".
  virtual std::string move_name(StateKey s, std::size_t i) const { (void)s; return "#" + std::to_string(i); }

  // The options this instance was made with (set by make_game): a solve records them, so that a
  // reader of its work dir makes the same game without being told.
  const std::vector<std::string>& options() const { return options_; }

 private:
  friend std::unique_ptr<Game> make_game(const std::string& name, const std::vector<std::string>& options);
  std::vector<std::string> options_;
};

// Games register themselves by name so the CLI and tests can find them: zermelo solve <name>.
using GameFactory = std::function<std::unique_ptr<Game>(const std::vector<std::string>& options)>;
void register_game(const std::string& name, const std::string& summary, GameFactory factory);
std::unique_ptr<Game> make_game(const std::string& name, const std::vector<std::string>& options = {});
std::vector<std::pair<std::string, std::string>> registered_games();  // (name, summary)

}  // namespace zermelo

// In a game's .cpp: ZERMELO_REGISTER_GAME(tictactoe, "summary", [](auto& opts) { ... });
#define ZERMELO_REGISTER_GAME(id, summary, ...)                     \
  namespace {                                                           \
  const bool zermelo_game_registered_##id = [] {                        \
    ::zermelo::register_game(#id, summary, __VA_ARGS__);                    \
    return true;                                                        \
  }();                                                                  \
  }
