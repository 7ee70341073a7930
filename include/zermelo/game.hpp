// The one interface between a game's rules and the game-agnostic pipeline.
//
// The pipeline (enumeration, retrograde passes, breadth-first passes, queries) only ever sees
// 64-bit state keys and the hooks below; it knows nothing of boards or moves. A game module lives
// in one folder, src/games/<game>/, and registers itself by name (ZERMELO_REGISTER_GAME, at the
// end of this file); docs/new-game.md walks through adding one.
//
// The hooks are grouped by purpose. Each says REQUIRED or OPTIONAL, and for an optional hook what
// is lost without it: speed, a feature, or a check. Some hooks come in pairs that must agree
// (tiers and tier_of, a slot range and its slot function, groups_share_moves and
// successors_skipping): the game verifier (verify_game_moves, `zermelo verify-game GAME`) checks
// every pair, as well as moves against un-moves, in the spirit of GamesmanOne's per-game
// self-check.
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

// One move out of a state. There is one factory for each kind of move:
//   Child::state(k)              the move leads to state k (a key the game also enumerates);
//   Child::state(k, rule)        the same, with k's terminal_value, when the game knows it
//                                without decoding k again (for speed only);
//   Child::ends_game(v)          the move ends the game at once, v being the value for the
//                                player who would move next (Value::loss(0): the mover won);
//   Child::unkeyed_in_tier(rule) from successor_outcomes only: a state of the parent's own tier
//                                whose key was not computed, rule being its terminal_value;
//   Child::skipped()             from successors_skipping only: a move whose child was not
//                                computed at all, because the caller said it need not be.
struct Child {
  // Keys that name no state (state keys are below 2^63), one for each kind of missing key.
  static constexpr StateKey kUnkeyedInTier = ~StateKey{0};
  static constexpr StateKey kSkipped = ~StateKey{0} - 1;

  StateKey key = 0;
  Value terminal = Value::unknown();  // known: the move ends the game (ends_game)
  Value rule = Value::unknown();      // the child's terminal_value, if rule_known
  bool rule_known = false;

  bool is_terminal() const { return terminal.is_known(); }
  bool is_unkeyed_in_tier() const { return key == kUnkeyedInTier; }
  bool is_skipped() const { return key == kSkipped; }

  static Child state(StateKey k) { return Child{k, Value::unknown()}; }
  static Child state(StateKey k, Value rule_value) {
    return Child{k, Value::unknown(), rule_value, true};
  }
  static Child ends_game(Value for_next_mover) { return Child{0, for_next_mover}; }
  static Child unkeyed_in_tier(Value rule_value) {
    return Child{kUnkeyedInTier, Value::unknown(), rule_value, true};
  }
  static Child skipped() { return Child{kSkipped, Value::unknown()}; }
};

// A slice of the state space closed under moves except into tiers listed in `depends_on`.
struct Tier {
  std::string name;
  std::vector<std::string> depends_on;
};

class Game {
 public:
  virtual ~Game() = default;

  // ---- Identity -------------------------------------------------------------------------------

  // REQUIRED. The name the game is registered under, e.g. "nim".
  virtual std::string name() const = 0;
  // OPTIONAL. The options that make this instance (board size, cards...), e.g. "4x7"; part of a
  // job's identity. Without it, jobs of two variants of the game cannot be told apart by name.
  virtual std::string variant() const { return ""; }

  // ---- States ---------------------------------------------------------------------------------

  // REQUIRED. Calls emit for every state of `tier` (all states when the game has one tier): every
  // state the solver values. Order is free; duplicates are not allowed.
  virtual void enumerate(const std::string& tier,
                         const std::function<void(StateKey)>& emit) const = 0;

  // OPTIONAL. The value of a state decided by the rules alone (a finished game, a checkmate), for
  // the player to move, or unknown. Without it, every end of the game must be a move that
  // ends it (Child::ends_game), and a state without moves is an error.
  virtual Value terminal_value(StateKey s) const {
    (void)s;
    return Value::unknown();
  }

  // OPTIONAL. How many states enumerate(tier) emits, when the game can count them without
  // enumerating. Without it a solve too big for the disk is not refused before it starts (it
  // starts and runs out), and --max-states is checked only while the states are enumerated.
  virtual std::optional<std::uint64_t> count_states(const std::string& tier) const {
    (void)tier;
    return std::nullopt;
  }

  // OPTIONAL, for speed. True if enumerate emits each tier's keys in increasing order. Without
  // it the solver sorts the enumerated keys.
  virtual bool enumerates_in_key_order() const { return false; }

  // OPTIONAL, for scale (a pair): the tier's states cut into parts enumerated apart.
  // enumeration_parts(tier) says how many; enumerate_part(tier, i, emit) emits part i's states.
  // The parts together emit exactly enumerate(tier)'s states, each once; a game that enumerates
  // in key order emits each part in key order, every key of part i below part i+1's. Step 1 walks
  // the parts on all threads (so enumerate_part must be safe to call from several at once), and
  // under MPI each rank a contiguous share of them (docs/distributed.md), so make them many (a
  // hundred or more) and of similar sizes. Without them step 1 runs on one thread, and every
  // rank walks the whole enumeration and keeps every N-th state: the ranks share the keys' sort,
  // not the walk.
  virtual std::uint64_t enumeration_parts(const std::string& tier) const {
    (void)tier;
    return 1;
  }
  virtual void enumerate_part(const std::string& tier, std::uint64_t part,
                              const std::function<void(StateKey)>& emit) const {
    (void)part;
    enumerate(tier, emit);
  }

  // REQUIRED. The state play starts from (`play`, `bfs`, the verifier's walk, the start's value).
  virtual StateKey start() const = 0;

  // ---- Moves ----------------------------------------------------------------------------------

  // REQUIRED. Every legal move's child, in the game's fixed move order (move_name(s, i) names the
  // i-th). `out` is cleared by the caller. The solver does not ask for the moves of a state with
  // a known terminal_value; `bfs --expand-decided` does (they may have none).
  virtual void successors(StateKey s, std::vector<Child>& out) const = 0;

  // OPTIONAL, for speed. Like successors, for a solver that has un-moves and only counts moves: a
  // child in the same tier as s may be Child::unkeyed_in_tier, carrying only its rule value, as
  // the solver needs only how many moves lead where and which end at once, and a child's key is
  // most of a move's cost. Children in other tiers keep their keys. Without it: successors.
  // Checked by the verifier (same moves, in the same order, as successors).
  virtual void successor_outcomes(StateKey s, std::vector<Child>& out) const { successors(s, out); }

  // OPTIONAL, for speed and disk (a pair: has_predecessors turns predecessors on). Every state
  // with a move leading to s, once per such move. States whose terminal_value is known may be
  // left out: no child's value can change theirs. Without them the solver writes and sorts a run
  // of reverse edges (one record per move). Checked by the verifier against successors, both ways.
  virtual bool has_predecessors() const { return false; }
  virtual void predecessors(StateKey s, std::vector<StateKey>& out) const {
    (void)s;
    out.clear();
  }

  // ---- Tiers (OPTIONAL, for scale: solved one at a time, bottom-up) ---------------------------

  // The tiers, listed bottom-up (a tier's dependencies come before it), and the tier of a state.
  // Without them the game is one tier "all", solved in one piece: nothing is lost but the chance
  // to solve a game too big for one solve slice by slice (`solve --tier`). The verifier checks
  // that tier_of names a listed tier and that every move stays in its tier or goes to one the
  // tier depends on.
  virtual std::vector<Tier> tiers() const { return {Tier{"all", {}}}; }
  virtual std::string tier_of(StateKey s) const {
    (void)s;
    return "all";
  }

  // ---- Slots: dense numberings of states (OPTIONAL, for speed) --------------------------------

  // A range of slots [first, end); empty: the tier has no numbering.
  struct SlotRange {
    std::uint64_t first = 0, end = 0;
    std::uint64_t size() const { return end - first; }
  };
  static constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};  // a state that has no slot

  // Exit slots (a pair), for tiered games whose moves out of a tier reach few distinct lower-tier
  // states: exit_slots(tier) is the range numbering them, exit_slot(s) the slot of one (kNoSlot:
  // not numbered). Every child in another tier that successors or successor_outcomes emit for a
  // state of `tier` must have a slot in exit_slots(tier), distinct states distinct slots. With
  // them the solver holds those states' values in one in-memory array while it scans the tier and
  // settles every move into a lower tier on the spot. Without them it sorts one lookup per such
  // move and merges it with the lower values (5v5 Ostle makes 2.6 × 10^10 of them). The verifier
  // and the solver check the contract (an error names the key); the solver falls back to lookups
  // when the array does not fit its memory budget.
  virtual SlotRange exit_slots(const std::string& tier) const {
    (void)tier;
    return {};
  }
  virtual std::uint64_t exit_slot(StateKey s) const {
    (void)s;
    return kNoSlot;
  }

  // Group slots (a pair): a numbering of groups of a tier's states, each group being consecutive
  // keys; group_slot(s) lies in group_slots(tier_of(s)) and does not decrease as keys increase.
  // One numbering serves all tiers (a slot names one group in the whole game). With them the
  // solver keeps one bit a group, "some state of it is still undecided", and drops the messages
  // to groups without one before sorting them (most messages of a large tier's middle levels go
  // to states decided earlier), and the breadth-first search over all states filters the same
  // way. Without them every message is sorted. The verifier and the solver check the contract.
  virtual SlotRange group_slots(const std::string& tier) const {
    (void)tier;
    return {};
  }
  virtual std::uint64_t group_slot(StateKey s) const {
    (void)s;
    return kNoSlot;
  }

  // ---- Moves shared by a group (OPTIONAL, for speed of `bfs --all-states`) --------------------

  // A pair, for games with group slots whose groups share their moves: groups_share_moves() says
  // that every state of a group has the group's list of moves (the same children, in the same
  // order), except that each state may lack one of them. A search that expands every state
  // once then needs, for a state whose group was expanded before, the keys of only the moves the
  // earlier states lacked: the rest reach states found already, and a child's key is most of a
  // move's cost. successors_skipping(s, skip, out) is successors(s, out) with Child::skipped()
  // for every move whose index i in the group's list has bit i of `skip` set (fewer than 64
  // moves); it returns the index of the group's move that s lacks, or -1 if it lacks none.
  // Without them every move of every state is keyed. The verifier checks that successors_skipping
  // with nothing to skip equals successors, and with everything to skip skips every non-ending
  // move.
  virtual bool groups_share_moves() const { return false; }
  virtual int successors_skipping(StateKey s, std::uint64_t skip, std::vector<Child>& out) const {
    (void)skip;
    successors(s, out);
    return -1;
  }

  // ---- Text ------------------------------------------------------------------------------------

  // REQUIRED. A diagram of the state, several lines (query, decode, verifier reports).
  virtual std::string render(StateKey s) const = 0;
  // OPTIONAL. A state from its text form. Without it `query STATE` and the explorer's state box
  // accept only keys.
  virtual std::optional<StateKey> parse(std::string_view text, std::string* error) const {
    (void)text;
    if (error) *error = name() + ": parsing states is not supported";
    return std::nullopt;
  }
  // OPTIONAL. The name of the i-th move of successors(s), e.g. "e3L". Without it moves are named
  // by their index ("#2").
  virtual std::string move_name(StateKey s, std::size_t i) const {
    (void)s;
    return "#" + std::to_string(i);
  }
  // OPTIONAL. The index in successors(s) of the move `text` names, or nullopt with *error saying
  // why (e.g. which moves an ambiguous text could be). Without it a move is read only by its exact
  // move_name; a game overrides it to accept other spellings (Onitama: with or without the card).
  virtual std::optional<std::size_t> parse_move(StateKey s, std::string_view text,
                                                std::string* error) const {
    std::vector<Child> kids;
    successors(s, kids);
    for (std::size_t i = 0; i < kids.size(); ++i)
      if (move_name(s, i) == text) return i;
    if (error) *error = "'" + std::string(text) + "' is not a move here";
    return std::nullopt;
  }

  // The options this instance was made with (set by make_game): a solve records them, so that a
  // reader of its work dir makes the same game without being told.
  const std::vector<std::string>& options() const { return options_; }

 private:
  friend std::unique_ptr<Game> make_game(const std::string& name,
                                         const std::vector<std::string>& options);
  std::vector<std::string> options_;
};

// Games register themselves by name so the CLI and tests can find them: zermelo solve <name>.
using GameFactory = std::function<std::unique_ptr<Game>(const std::vector<std::string>& options)>;
void register_game(const std::string& name, const std::string& summary, GameFactory factory);
std::unique_ptr<Game> make_game(const std::string& name,
                                const std::vector<std::string>& options = {});
std::vector<std::pair<std::string, std::string>> registered_games();  // (name, summary)

}  // namespace zermelo

// In a game's .cpp: ZERMELO_REGISTER_GAME(tictactoe, "summary", [](auto& opts) { ... });
#define ZERMELO_REGISTER_GAME(id, summary, ...)          \
  namespace {                                            \
  const bool zermelo_game_registered_##id = [] {         \
    ::zermelo::register_game(#id, summary, __VA_ARGS__); \
    return true;                                         \
  }();                                                   \
  }
