// Small-board Ostle behind the Game interface, registered as "ostle-mini" with the variant as
// its option: `zermelo solve ostle-mini 4x4:p3`.
//
// Same value convention as the 5x5 module (src/games/ostle/game.cpp): a checkmate position is
// win in 0 for the mover; a move leaving the opponent with p-2 pieces gives the next mover loss in
// 0 (only from a checkmate position), a move removing the mover's own piece down to p-2 gives the
// next mover win in 0, so it counts as losing in 1. States: every board with p-1 or p pieces a
// side and one hole, each with every forbidden move a previous ply could have left (none
// included), symmetric boards not identified. Tiers by material, as in 5x5 Ostle.
#include <sstream>
#include <stdexcept>

#include "zermelo/games/ostle/mini.hpp"
#include "zermelo/games/ostle/options.hpp"

namespace zermelo::ostle::mini {
namespace {

std::string material_name(int mine, int theirs) {
  return std::to_string(mine) + "v" + std::to_string(theirs);
}

class MiniGame final : public Game {
 public:
  MiniGame(const Rules& rules, const GameOptions& o) : r_(rules), o_(o) {}

  std::string name() const override { return "ostle-mini"; }
  std::string variant() const override {
    return r_.variant() + (o_.variant().empty() ? "" : " " + o_.variant());
  }

  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    for (const Part& part : parts(tier)) enumerate(part, emit);
  }
  // A part is the boards of one material and one hole (the ranks of an MPI solve share them).
  std::uint64_t enumeration_parts(const std::string& tier) const override {
    return parts(tier).size();
  }
  void enumerate_part(const std::string& tier, std::uint64_t part,
                      const std::function<void(StateKey)>& emit) const override {
    enumerate(parts(tier).at(part), emit);
  }

  Value terminal_value(StateKey s) const override {
    return r_.is_checkmate(r_.decode(s).first) ? Value::win(0) : Value::unknown();
  }

  // Every move but the forbidden one, all keyed: the group's moves less the one the state lacks.
  void successors(StateKey s, std::vector<Child>& out) const override {
    successors_skipping(s, 0, out);
  }

  // A board's states differ in the forbidden move only: the group's moves are the board's.
  bool groups_share_moves() const override { return true; }
  int successors_skipping(StateKey s, std::uint64_t skip, std::vector<Child>& out) const override {
    out.clear();
    const auto [b, forbid] = r_.decode(s);
    int index = 0, lacked = -1;
    for (const MiniMove& m : r_.legal_moves(b, kNoForbid)) {
      const int i = index++;
      if (m.forbid() == forbid && !o_.play_restricted) {
        lacked = i;
        continue;
      }
      const Played p = r_.play(b, m);
      const bool published = o_.reading == Reading::kPublished;
      switch (p.outcome) {
        case MoveOutcome::kMoverWins:
          out.push_back(Child::ends_game(Value::loss(0)));
          break;
        case MoveOutcome::kMoverLoses:
          out.push_back(Child::ends_game(Value::win(0)));
          break;
        case MoveOutcome::kContinues:
          out.push_back(skip >> i & 1
                            ? Child::skipped()
                            : Child::state(r_.key(p.next, published ? r_.published_forbid(p.next, b)
                                                                    : p.next_forbid)));
          break;
      }
    }
    return lacked;
  }

  // Both readings have un-moves; play-restricted's graph is not the game's, so it has none (its
  // solves build a reverse-edge run).
  bool has_predecessors() const override { return !o_.play_restricted; }

  // One parent per (un-move, code of the previous board that allows that move): with no symmetry
  // identified, that is exactly once per move of successors(parent) leading here. Checkmate
  // parents included (5x5 Ostle leaves them out; the engine takes either).
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    const auto [b, forbid] = r_.decode(s);
    const bool published = o_.reading == Reading::kPublished;
    for (const UnMove& u : published ? r_.published_unmoves(b, forbid) : r_.unmoves(b, forbid))
      for (int g : published ? r_.published_forbids(u.prev) : r_.reachable_forbids(u.prev))
        if (g != u.move.forbid()) out.push_back(r_.key(u.prev, g));
  }

  std::vector<Tier> tiers() const override {
    const int p = r_.pieces();
    const std::string low = material_name(p - 1, p - 1), mid = tier_of_material(p, p - 1),
                      top = material_name(p, p);
    return {Tier{low, {}}, Tier{mid, {low}}, Tier{top, {mid, low}}};
  }
  std::string tier_of(StateKey s) const override {
    const Board b = r_.decode(s).first;
    return tier_of_material(r_.count(b, kMine), r_.count(b, kTheirs));
  }

  // As in 5x5 Ostle, a move into another tier removes a piece and leaves no forbidden move; the
  // slot is the board part of the key (sparse, 4^squares slots, but simple and small for tests).
  SlotRange exit_slots(const std::string& tier) const override {
    if (tier == tiers().front().name || tier == "all") return {};
    return {0, std::uint64_t{1} << (2 * r_.squares())};
  }
  std::uint64_t exit_slot(StateKey s) const override {
    return (s & ((1u << kCodeBits) - 1)) == kNoForbid ? group_slot(s) : kNoSlot;
  }
  // Groups are boards (a board's states differ in the forbidden code, the key's low bits).
  SlotRange group_slots(const std::string& tier) const override {
    (void)tier;
    return {0, std::uint64_t{1} << (2 * r_.squares())};
  }
  std::uint64_t group_slot(StateKey s) const override { return s >> kCodeBits; }

  StateKey start() const override { return r_.key(r_.start(), kNoForbid); }

  std::string render(StateKey s) const override {
    const auto [b, forbid] = r_.decode(s);
    std::ostringstream os;
    os << r_.diagram(b, forbid) << "key " << s
       << (r_.is_checkmate(b) ? ", checkmate (the mover wins at once)" : "") << "\n";
    return os.str();
  }

  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    auto st = r_.parse(text, error, o_.reading == Reading::kPublished);
    if (!st) return std::nullopt;
    return r_.key(st->first, st->second);
  }

  std::string move_name(StateKey s, std::size_t i) const override {
    const auto [b, forbid] = r_.decode(s);
    const auto moves = r_.legal_moves(b, o_.play_restricted ? kNoForbid : forbid);
    return i < moves.size() ? r_.move_name(moves[i]) : "?";
  }

 private:
  std::string tier_of_material(int mine, int theirs) const {
    if (mine == theirs) return material_name(mine, theirs);
    const int p = r_.pieces();
    return material_name(p, p - 1) + "+" + material_name(p - 1, p);
  }
  std::string tier_list() const {
    std::string names;
    for (auto& t : tiers()) names += (names.empty() ? "" : ", ") + t.name;
    return names;
  }

  // Puts the remaining pieces on squares s.. (each combination once), then emits every state.
  struct Part {
    int mine, theirs, hole;
  };
  std::vector<Part> parts(const std::string& tier) const {
    const int p = r_.pieces();
    std::vector<Part> out;
    for (int mine : {p - 1, p})
      for (int theirs : {p - 1, p})
        if (tier == "all" || tier_of_material(mine, theirs) == tier)
          for (int hole = 0; hole < r_.squares(); ++hole) out.push_back({mine, theirs, hole});
    if (out.empty())
      throw std::invalid_argument("ostle-mini: unknown tier '" + tier + "' (" + tier_list() +
                                  " or all)");
    return out;
  }
  void enumerate(const Part& part, const std::function<void(StateKey)>& emit) const {
    Board b;
    b.hole = part.hole;
    b.cell[part.hole] = kHole;
    place(b, 0, part.mine, part.theirs, emit);
  }

  void place(Board& b, int s, int mine, int theirs,
             const std::function<void(StateKey)>& emit) const {
    if (mine == 0 && theirs == 0) {
      const bool published = o_.reading == Reading::kPublished;
      for (int g : published ? r_.published_forbids(b) : r_.reachable_forbids(b))
        emit(r_.key(b, g));
      return;
    }
    if (s == r_.squares()) return;
    if (b.cell[s] == kHole) return place(b, s + 1, mine, theirs, emit);
    place(b, s + 1, mine, theirs, emit);
    if (mine > 0) {
      b.cell[s] = kMine;
      place(b, s + 1, mine - 1, theirs, emit);
    }
    if (theirs > 0) {
      b.cell[s] = kTheirs;
      place(b, s + 1, mine, theirs - 1, emit);
    }
    b.cell[s] = kEmpty;
  }

  Rules r_;
  GameOptions o_;
};

// Registered by hand: the game's name has a dash, which ZERMELO_REGISTER_GAME's id cannot.
const bool registered = [] {
  register_game(
      "ostle-mini",
      "Ostle on a small board, options WxH:pP (default 4x4:p3: p pieces a side, lose at p-2), "
      "then reference, play-restricted as for ostle",
      [](std::vector<std::string> options) -> std::unique_ptr<Game> {
        std::string variant = "4x4:p3";
        if (!options.empty() && options[0].find('x') != std::string::npos) {
          variant = options[0];
          options.erase(options.begin());
        }
        return make_mini_game(Rules::from_variant(variant),
                              parse_game_options(options, "ostle-mini"));
      });
  return true;
}();

}  // namespace

std::unique_ptr<Game> make_mini_game(const Rules& rules, const GameOptions& options) {
  return std::make_unique<MiniGame>(rules, options);
}

}  // namespace zermelo::ostle::mini
