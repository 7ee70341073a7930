// Ostle behind the Game interface (see zermelo/games/ostle/game.hpp).
//
// Value convention (docs/ostle.md): a checkmate position is decided by the rules, win in 0 for
// the mover; every other state's value counts plies to the next checkmate position. A move that
// ends the game leads to no state: a move leaving the opponent with three pieces (only possible
// from a checkmate position) gives the next mover loss in 0, a move removing the mover's own
// fourth-last piece gives the next mover win in 0, so it counts as losing in 1, like moving into
// a checkmate position.
#include "zermelo/games/ostle/game.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/published.hpp"

namespace zermelo::ostle {

const std::vector<std::string>& tier_names() {
  static const std::vector<std::string> names = {"4v4", "5v4+4v5", "5v5"};
  return names;
}

std::vector<int> tier_materials(const std::string& tier) {
  if (tier == "4v4") return {material_of(4, 4)};
  if (tier == "5v4+4v5") return {material_of(4, 5), material_of(5, 4)};
  if (tier == "5v5") return {material_of(5, 5)};
  if (tier == "all") return {0, 1, 2, 3};
  throw std::invalid_argument("ostle: unknown tier '" + tier + "' (use 4v4, 5v4+4v5, 5v5 or all)");
}

namespace {

std::string tier_of_material(int material) {
  return material == 0 ? "4v4" : material == 3 ? "5v5" : "5v4+4v5";
}

// Positions of the classes before each class (kClasses + 1 entries): the exit slots' numbering.
const std::vector<std::uint64_t>& class_offsets() {
  static const std::vector<std::uint64_t> offsets = [] {
    std::vector<std::uint64_t> o{0};
    for (int cls = 0; cls < kClasses; ++cls) o.push_back(o.back() + PositionIndex::get().size(cls));
    return o;
  }();
  return offsets;
}

class OstleGame final : public Game {
 public:
  explicit OstleGame(const GameOptions& o) : o_(o) {}
  std::string name() const override { return "ostle"; }
  std::string variant() const override { return o_.variant(); }

  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    for (const Part& part : parts(tier))
      enumerate_states(part.cls, part.first, part.end, emit, o_.reading);
  }
  // A part is a run of a class's positions, in key order (the ranks of an MPI solve share them).
  std::uint64_t enumeration_parts(const std::string& tier) const override {
    return parts(tier).size();
  }
  void enumerate_part(const std::string& tier, std::uint64_t i,
                      const std::function<void(StateKey)>& emit) const override {
    const Part part = parts(tier).at(i);
    enumerate_states(part.cls, part.first, part.end, emit, o_.reading);
  }

  Value terminal_value(StateKey s) const override {
    return is_checkmate(key_state(s).first) ? Value::win(0) : Value::unknown();
  }

  void successors(StateKey s, std::vector<Child>& out) const override { expand(s, out, true); }

  // Moves that keep the material (no piece leaves the board) stay in the tier: their children need
  // no canonical key, only whether they are checkmate positions.
  void successor_outcomes(StateKey s, std::vector<Child>& out) const override {
    expand(s, out, false);
  }

  // A position's states differ in the forbidden move only: the group's moves are the position's
  // (in legal_moves order, the canonical position's frame, as its states' forbidden codes are).
  bool groups_share_moves() const override { return true; }
  int successors_skipping(StateKey s, std::uint64_t skip, std::vector<Child>& out) const override {
    out.clear();
    const auto [p, forbid] = key_state(s);
    int index = 0, lacked = -1;
    for (const Move& m : legal_moves(p, kNoForbidden)) {
      const int i = index++;
      if (forbid_of(m) == forbid && !o_.play_restricted) {
        lacked = i;
        continue;
      }
      const MoveResult r = apply_move(p, m);
      switch (r.outcome) {
        case Outcome::kMoverWins:
          out.push_back(Child::ends_game(Value::loss(0)));
          break;
        case Outcome::kMoverLoses:
          out.push_back(Child::ends_game(Value::win(0)));
          break;
        case Outcome::kContinues: {
          if (skip >> i & 1) {
            out.push_back(Child::skipped());
            break;
          }
          const Value rule = is_checkmate(r.next) ? Value::win(0) : Value::unknown();
          out.push_back(Child::state(child_key(p, r), rule));
          break;
        }
      }
    }
    return lacked;
  }

  // Keys are (class, rank, forbidden code) and enumerate walks classes and ranks in order.
  bool enumerates_in_key_order() const override { return true; }

  // Both readings have un-moves; play-restricted's graph is not the game's, so it has none (its
  // solves build a reverse-edge run).
  bool has_predecessors() const override { return !o_.play_restricted; }

  // Un-moves give exact previous states (the published reading's: published_parents); with
  // symmetric states a parent s reaches the child c by (un-moves giving s) * |Stab(s)| / |Stab(c)|
  // moves, which is what successors(s) lists.
  // Checkmate parents are left out (their value is win in 0 whatever their children are): about
  // half of all parents, which saves their canonicalisation here and their messages in the solver.
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    if (o_.reading == Reading::kPublished) return published_parents(s, out);
    out.clear();
    const auto [p, forbid] = key_state(s);
    const int child_stab = canonicalize(p, forbid).state_stab;
    thread_local std::vector<UnMove> un;
    thread_local std::vector<KeyedState> parents;
    unmoves(p, forbid, un);
    parents.clear();
    const PositionIndex& index = PositionIndex::get();
    for (const UnMove& u : un) {
      if (is_checkmate(u.prev)) continue;
      const CanonicalPosition cp = canonical_position(u.prev);  // once for all its codes
      const Key base = make_key(class_of(cp.pos), index.rank(cp.pos), kNoForbidden);
      for (int g : reachable_forbid_codes(u.prev)) {
        if (g == forbid_of(u.move)) continue;  // that move was forbidden there
        const CanonicalForbid cf = canonical_forbid(cp.achieving, g);
        parents.push_back(KeyedState{base | static_cast<Key>(cf.forbid), cf.state_stab});
      }
    }
    // Without symmetry, each un-move is one move of its parent: the list is the answer. (This
    // check saves a sort that took a third of an un-move pass; the order of `out` is free.)
    const bool asymmetric =
        child_stab == 1 && std::all_of(parents.begin(), parents.end(),
                                       [](const KeyedState& k) { return k.stab == 1; });
    if (asymmetric) {
      for (const KeyedState& k : parents) out.push_back(k.key);
      return;
    }
    // A symmetric child or parent: a parent's un-moves, grouped, count its moves to the child.
    std::sort(parents.begin(), parents.end(),
              [](const KeyedState& a, const KeyedState& b) { return a.key < b.key; });
    for (std::size_t i = 0; i < parents.size();) {
      std::size_t j = i;
      while (j < parents.size() && parents[j].key == parents[i].key) ++j;
      const std::size_t moves = (j - i) * static_cast<std::size_t>(parents[i].stab) /
                                static_cast<std::size_t>(child_stab);
      out.insert(out.end(), moves, parents[i].key);
      i = j;
    }
  }

  std::vector<Tier> tiers() const override {
    return {Tier{"4v4", {}}, Tier{"5v4+4v5", {"4v4"}}, Tier{"5v5", {"5v4+4v5", "4v4"}}};
  }
  std::string tier_of(StateKey s) const override {
    return tier_of_material(class_material(key_class(s)));
  }

  // A move removes at most one piece, and a move that removes one leaves no forbidden move, so
  // the children of a tier in other tiers are positions with one piece fewer: slots are position
  // ranks, class after class (classes are material-major, so a tier's exits are one range).
  SlotRange exit_slots(const std::string& tier) const override {
    const std::vector<int> materials = tier_materials(tier);
    const int pieces = 8 + materials.front() / 2 + materials.front() % 2;
    if (pieces == 8) return {};  // "all" and 4v4: a 4v4 move that removes a piece ends the game
    int lo = kClasses, hi = 0;
    for (int cls = 0; cls < kClasses; ++cls)
      if (class_my_count(cls) + class_opp_count(cls) == pieces - 1)
        lo = std::min(lo, cls), hi = std::max(hi, cls + 1);
    return {class_offsets()[static_cast<std::size_t>(lo)],
            class_offsets()[static_cast<std::size_t>(hi)]};
  }
  std::uint64_t exit_slot(StateKey s) const override {
    if (key_forbid(s) != kNoForbidden) return kNoSlot;
    return group_slot(s);
  }
  // Groups are positions: a key is class | rank | forbidden code, so a position's states are
  // consecutive keys, and a tier's classes are consecutive.
  SlotRange group_slots(const std::string& tier) const override {
    const std::vector<int> materials = tier_materials(tier);
    const auto first = static_cast<std::size_t>(class_id(materials.front(), 0));
    const auto end = static_cast<std::size_t>(class_id(materials.back(), kHoleClasses - 1) + 1);
    return {class_offsets()[first], class_offsets()[end]};
  }
  std::uint64_t group_slot(StateKey s) const override {
    return class_offsets()[static_cast<std::size_t>(key_class(s))] + key_rank(s);
  }

  StateKey start() const override { return state_key(start_position(), kNoForbidden).key; }

  std::string render(StateKey s) const override {
    const auto [p, forbid] = key_state(s);
    std::ostringstream os;
    os << diagram(p, forbid) << "class " << class_name(key_class(s)) << ", rank " << key_rank(s)
       << ", key " << s << (is_checkmate(p) ? ", checkmate (the mover wins at once)" : "") << "\n";
    return os.str();
  }

  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    if (o_.reading == Reading::kPublished) return parse_published_state(text, error);
    auto st = parse_state(text, error);
    if (!st) return std::nullopt;
    return state_key(st->first, st->second).key;
  }

  std::string move_name(StateKey s, std::size_t i) const override {
    const auto [p, forbid] = key_state(s);
    const MoveList moves = legal_moves(p, o_.play_restricted ? kNoForbidden : forbid);
    if (i >= static_cast<std::size_t>(moves.size)) return "?";
    return ostle::move_name(moves.moves[i]);
  }

 private:
  // The moves of the position last expanded on this thread, with their children. Runs are sorted,
  // so a position's states (one per forbidden move) come one after another, and they differ in
  // one move only: the children's canonical keys, most of a state's cost, are computed once a
  // position instead of once a state.
  struct PositionMoves {
    Key position = ~Key{0};             // the key's position part (class and rank)
    Reading reading = Reading::kExact;  // children's keys depend on the reading
    bool keyed = false;                 // children in the same tier have their keys too
    int size = 0;
    std::array<int, 24> forbid{};  // each move's forbidden code: the state with it lacks the move
    std::array<bool, 24> same_tier{};
    std::array<Child, 24> child{};
  };

  // The state a continuing move from p leaves, under this game's reading.
  Key child_key(const Position& p, const MoveResult& r) const {
    if (o_.reading == Reading::kPublished) return published_child_key(r, p);
    return state_key(r.next, r.next_forbid).key;
  }

  // A board, then optionally ':' and the move that would recreate the previous position's class.
  std::optional<StateKey> parse_published_state(std::string_view text, std::string* error) const {
    const auto colon = text.find(':');
    const auto p = parse_position(text.substr(0, colon), error);
    if (!p) return std::nullopt;
    const CanonicalPosition cp = canonical_position(*p);
    StateKey key = make_key(class_of(cp.pos), PositionIndex::get().rank(cp.pos), kNoForbidden);
    if (colon != std::string_view::npos) {
      const auto m = ostle::parse_move(text.substr(colon + 1), error);
      if (!m) return std::nullopt;
      const MoveList legal = legal_moves(*p, kNoForbidden);
      const MoveResult r = apply_move(*p, *m);
      if (std::find(legal.begin(), legal.end(), *m) == legal.end() || r.removed >= 0) {
        if (error)
          *error = "forbidden move " + ostle::move_name(*m) +
                   " is not a legal move that keeps every piece";
        return std::nullopt;
      }
      key = published_child_key(*p, r.next);  // the previous position was congruent to r.next
    }
    const auto [canon, code] = key_state(key);
    for (int c : published_codes(canon))
      if (c == code) return key;
    if (error)
      *error = "no move leads to '" + std::string(text) + "' under the published reading (" +
               (code == kNoForbidden ? "every position that can precede it can be recreated"
                                     : "no position of that class can precede it") +
               ")";
    return std::nullopt;
  }

  // Every legal move's outcome; children carry their checkmate value. Without `keyed`, children
  // in the same tier (the same number of pieces) are left without their canonical key.
  void expand(StateKey s, std::vector<Child>& out, bool keyed) const {
    thread_local PositionMoves moves;
    const Key position = s >> kForbidBits;
    if (position != moves.position || (keyed && !moves.keyed) || moves.reading != o_.reading) {
      const Position p = key_state(s).first;
      const int pieces = std::popcount(p.me) + std::popcount(p.opp);
      moves.size = 0;
      for (const Move& m : legal_moves(p, kNoForbidden)) {
        const MoveResult r = apply_move(p, m);
        const int i = moves.size++;
        moves.forbid[i] = forbid_of(m);
        moves.same_tier[i] = false;
        switch (r.outcome) {
          case Outcome::kMoverWins:
            moves.child[i] = Child::ends_game(Value::loss(0));
            break;
          case Outcome::kMoverLoses:
            moves.child[i] = Child::ends_game(Value::win(0));
            break;
          case Outcome::kContinues: {
            const Value rule = is_checkmate(r.next) ? Value::win(0) : Value::unknown();
            moves.same_tier[i] = std::popcount(r.next.me) + std::popcount(r.next.opp) == pieces;
            moves.child[i] = !keyed && moves.same_tier[i] ? Child::unkeyed_in_tier(rule)
                                                          : Child::state(child_key(p, r), rule);
            break;
          }
        }
      }
      moves.position = position;
      moves.keyed = keyed;
      moves.reading = o_.reading;
    }
    out.clear();
    const int forbid = key_forbid(s);
    for (int i = 0; i < moves.size; ++i) {
      if (moves.forbid[i] == forbid && !o_.play_restricted) continue;
      const bool unkeyed = !keyed && moves.same_tier[i];
      out.push_back(unkeyed ? Child::unkeyed_in_tier(moves.child[i].rule) : moves.child[i]);
    }
  }

  // Positions a part: some 2,600 parts in the whole game (2.7 × 10^9 positions).
  static constexpr std::uint64_t kPartPositions = 1u << 20;
  struct Part {
    int cls;
    std::uint64_t first, end;  // ranks of the class's positions
  };
  static std::vector<Part> parts(const std::string& tier) {
    std::vector<Part> out;
    for (int material : tier_materials(tier))
      for (int hole = 0; hole < kHoleClasses; ++hole) {
        const int cls = class_id(material, hole);
        const std::uint64_t size = PositionIndex::get().size(cls);
        for (std::uint64_t first = 0; first < size; first += kPartPositions)
          out.push_back({cls, first, std::min(size, first + kPartPositions)});
      }
    return out;
  }

  GameOptions o_;
};

}  // namespace

std::unique_ptr<Game> make_ostle_game(const GameOptions& o) {
  return std::make_unique<OstleGame>(o);
}

ForbidList state_codes(const Position& canonical, unsigned stab, Reading reading) {
  return reading == Reading::kPublished ? published_codes(canonical)
                                        : distinct_forbid_codes(canonical, stab);
}

void enumerate_states(int cls, std::uint64_t lo, std::uint64_t hi,
                      const std::function<void(StateKey)>& emit, Reading reading) {
  PositionIndex::get().for_each(cls, lo, hi,
                                [&](std::uint64_t rank, const Position& p, unsigned stab) {
                                  for (int code : state_codes(p, stab, reading))
                                    emit(make_key(cls, rank, code));
                                });
}

std::vector<std::uint64_t> bfs_levels(int max_ply, const GameOptions& o) {
  OstleGame game(o);
  std::unordered_set<StateKey> seen{game.start()};
  std::vector<StateKey> frontier{game.start()}, next;
  std::vector<std::uint64_t> levels{1};
  std::vector<Child> kids;
  for (int ply = 1; ply <= max_ply; ++ply) {
    next.clear();
    for (StateKey s : frontier) {
      game.successors(s, kids);
      for (const Child& c : kids)
        if (!c.is_terminal() && seen.insert(c.key).second) next.push_back(c.key);
    }
    levels.push_back(next.size());
    frontier.swap(next);
  }
  return levels;
}

}  // namespace zermelo::ostle

ZERMELO_REGISTER_GAME(ostle,
                      "Ostle, the 5x5 pushing game with a hole (Takizawa 2023; 2.7e9 positions); "
                      "options: reference (the published solver's reading), play-restricted",
                      [](const std::vector<std::string>& options) {
                        using namespace zermelo::ostle;
                        return make_ostle_game(parse_game_options(options, "ostle"));
                      })
