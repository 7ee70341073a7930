// Onitama behind the generic Game interface, registered as `onitama` with options
// {board, cards[, symmetry]}, e.g. {"3x4", "boar"}. The enumerated states are every legal state of
// the key encoding (Rules::is_legal), reachable from the start or not, streamed tier by tier with
// nothing held in RAM, so the out-of-core engine can take boards of billions of states.
// Unreachable states are solved too; their values are those of the game played from them.
//
// Tiers: captures never come back, so the numbers of Red and Blue students split the states into
// tiers "r<R>b<B>"; a move stays in its tier or takes one student (one tier down).
//
// With the option "symmetry" a state and its player-swapped twin (Rules::swapped: same value) are
// one state, the smaller key. The twin of an r<R>b<B> state is r<B>b<R>, so the tiers become
// unordered pairs "s<hi>s<lo>" and hold exactly half the states (no state is its own twin: the
// player to move changes).
#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>

#include "zermelo/game.hpp"
#include "zermelo/games/onitama/exit_slots.hpp"
#include "zermelo/games/onitama/move_text.hpp"
#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {
namespace {

class OnitamaGame final : public Game {
 public:
  OnitamaGame(Rules rules, bool symmetry)
      : rules_(std::move(rules)), symmetry_(symmetry), exits_(rules_, symmetry_) {}
  OnitamaGame(const OnitamaGame&) = delete;  // exits_ refers to rules_
  OnitamaGame& operator=(const OnitamaGame&) = delete;

  std::string name() const override { return "onitama"; }

  // Board and the full deck (cards with their offsets): two jobs with other rules never share a
  // work directory's manifest.
  std::string variant() const override {
    std::string v = std::to_string(rules_.width()) + "x" + std::to_string(rules_.height());
    for (const Card& c : rules_.deck()) v += "; " + describe(c);
    if (symmetry_) v += "; player-swap symmetry";
    return v +
           "; every legal state";  // not the reachable set of earlier versions: no shared resume
  }

  void enumerate(const std::string& tier,
                 const std::function<void(StateKey)>& emit) const override {
    for (const auto& [red, blue] : student_counts(tier))
      legal_keys(red, blue, 0, rules_.blue_student_sets(blue), emit);
  }
  // A part: the states of one count of students a side with one set of Blue's students.
  std::uint64_t enumeration_parts(const std::string& tier) const override {
    std::uint64_t parts = 0;
    for (const auto& [red, blue] : student_counts(tier)) parts += rules_.blue_student_sets(blue);
    return parts;
  }
  void enumerate_part(const std::string& tier, std::uint64_t part,
                      const std::function<void(StateKey)>& emit) const override {
    for (const auto& [red, blue] : student_counts(tier)) {
      if (part < rules_.blue_student_sets(blue)) return legal_keys(red, blue, part, part + 1, emit);
      part -= rules_.blue_student_sets(blue);
    }
  }

  std::optional<std::uint64_t> count_states(const std::string& tier) const override {
    auto count = [&](int red, int blue) {
      return symmetry_ ? rules_.count_folded(red, blue) : rules_.count_legal(red, blue);
    };
    if (tier != "all") {
      auto [a, b] = parse_tier(tier);
      return count(a, b);
    }
    std::uint64_t total = 0;
    for (const Tier& t : tiers()) total += *count_states(t.name);
    return total;
  }

  std::vector<Tier> tiers() const override {
    std::vector<Tier> out;
    const int most = rules_.width() - 1;
    for (int total = 0; total <= 2 * most; ++total)
      for (int red = std::max(0, total - most); red <= std::min(total, most); ++red) {
        const int blue = total - red;
        if (symmetry_ && red < blue) continue;
        Tier t{tier_name(red, blue), {}};
        if (red > 0) t.depends_on.push_back(tier_name(red - 1, blue));
        if (blue > 0 && !(symmetry_ && red == blue))
          t.depends_on.push_back(tier_name(red, blue - 1));
        out.push_back(std::move(t));
      }
    return out;
  }
  std::string tier_of(StateKey s) const override {
    const Position p = rules_.decode(s);
    return tier_name(std::popcount(p.students[kRed]), std::popcount(p.students[kBlue]));
  }

  // Groups for the engine's filter of undecided states: a placement of the students and Blue's
  // master (Rules::keys_per_group consecutive keys). An un-move that puts a student back leads to
  // a group of a higher tier, which the filter drops at once.
  SlotRange group_slots(const std::string& tier) const override {
    const int most = rules_.width() - 1;
    if (tier == "all") return {0, rules_.student_groups(most, most).second};
    auto [a, b] = parse_tier(tier);
    auto [first, end] = rules_.student_groups(a, b);
    if (symmetry_ && a != b) {
      auto [first2, end2] = rules_.student_groups(b, a);
      first = std::min(first, first2), end = std::max(end, end2);
    }
    return {first, end};
  }
  std::uint64_t group_slot(StateKey s) const override { return s / rules_.keys_per_group(); }

  // Exits: a capture takes one student, so a tier's moves out of it reach the tiers with one
  // student fewer on either side, numbered densely by ExitSlots (the keys are not).
  SlotRange exit_slots(const std::string& tier) const override {
    if (tier == "all") return {};
    auto [a, b] = parse_tier(tier);
    auto [first, end] = exits_.exits_of(a, b);
    return {first, end};
  }
  std::uint64_t exit_slot(StateKey s) const override { return exits_.slot(rules_.decode(s)); }

  Value terminal_value(StateKey s) const override {
    return rules_.is_terminal(rules_.decode(s)) ? Value::loss(0) : Value::unknown();
  }

  void successors(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    rules_.for_each_child(rules_.decode(s), [&](const Position& c, const Move&) {
      out.push_back(Child::state(symmetry_ ? rules_.folded_key(c) : rules_.encode(c)));
    });
  }

  // For the initial scan, which only counts moves: a move that takes no student stays in the
  // tier and needs no key (encoding and folding it are most of a state's scan), only whether the
  // child is terminal; a capture leaves the tier and keeps its key.
  void successor_outcomes(StateKey s, std::vector<Child>& out) const override {
    out.clear();
    const Position p = rules_.decode(s);
    const int students = std::popcount(p.students[kRed]) + std::popcount(p.students[kBlue]);
    rules_.for_each_child(p, [&](const Position& c, const Move&) {
      if (std::popcount(c.students[kRed]) + std::popcount(c.students[kBlue]) == students)
        out.push_back(
            Child::unkeyed_in_tier(rules_.is_terminal(c) ? Value::loss(0) : Value::unknown()));
      else
        out.push_back(Child::state(symmetry_ ? rules_.folded_key(c) : rules_.encode(c)));
    });
  }

  // Every un-move, unfiltered: parents in higher tiers (a student put back) are legal states the
  // engine simply does not find in the tier it solves. With the symmetry, a parent P reaches the
  // folded state C by its moves to C and to C's twin (when that differs), so the un-moves of both
  // are listed, keeping only parents that are their own folded key: once per move, as successors.
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    const Position c = rules_.decode(s);
    if (!symmetry_) {
      rules_.for_each_parent(
          c, [&](const Position& p, const Move&) { out.push_back(rules_.encode(p)); });
      return;
    }
    auto folded_parents = [&](const Position& child) {
      rules_.for_each_parent(child, [&](const Position& p, const Move&) {
        if (rules_.is_folded(p)) out.push_back(rules_.encode(p));
      });
    };
    folded_parents(c);
    const Position twin = rules_.swapped(c);
    if (!(twin == c)) folded_parents(twin);
  }

  StateKey start() const override { return fold(rules_.start()); }
  std::string render(StateKey s) const override { return rules_.render(rules_.decode(s)); }

  std::optional<StateKey> parse(std::string_view text, std::string* error) const override {
    try {
      return fold(rules_.encode(rules_.parse(text)));
    } catch (const std::exception& e) {
      if (error) *error = e.what();
      return std::nullopt;
    }
  }

  // "a1-a2", or "Boar a1-a2" when another card makes the same step (move_text.hpp).
  std::string move_name(StateKey s, std::size_t i) const override {
    const std::vector<std::string> names = move_names(rules_, rules_.decode(s));
    return i < names.size() ? names[i] : "#" + std::to_string(i);
  }

  std::optional<std::size_t> parse_move(StateKey s, std::string_view text,
                                        std::string* error) const override {
    return find_move(rules_, rules_.decode(s), text, error);
  }

 private:
  Key fold(Key k) const { return symmetry_ ? rules_.canonical(k) : k; }

  // "r<R>b<B>", or with the symmetry "s<hi>s<lo>" (a side with hi students, the other with lo).
  std::string tier_name(int red, int blue) const {
    if (symmetry_)
      return "s" + std::to_string(std::max(red, blue)) + "s" + std::to_string(std::min(red, blue));
    return "r" + std::to_string(red) + "b" + std::to_string(blue);
  }

  // A tier's name -> (R, B) (with the symmetry: (hi, lo)); anything else is an error naming it.
  std::pair<int, int> parse_tier(const std::string& tier) const {
    for (auto& t : tiers())
      if (t.name == tier) {
        const int a = tier[1] - '0', b = tier[3] - '0';
        return {a, b};
      }
    const int most = rules_.width() - 1;
    throw std::invalid_argument("onitama " + rules_.board_name() + ": no tier '" + tier +
                                "' (tiers are " + (symmetry_ ? "s<hi>s<lo>" : "r<R>b<B>") +
                                " with 0.." + std::to_string(most) + " students a side, or all)");
  }

  // The (Red, Blue) student counts of a tier's states: with the symmetry a tier s<a>s<b> is
  // (a, b) and, a != b, the twins (b, a), folded onto the smaller key.
  std::vector<std::pair<int, int>> student_counts(const std::string& tier) const {
    std::vector<std::pair<int, int>> out;
    if (tier == "all") {
      for (int blue = 0; blue < rules_.width(); ++blue)
        for (int red = 0; red < rules_.width(); ++red) out.push_back({red, blue});
      return out;
    }
    const auto [a, b] = parse_tier(tier);
    out.push_back({a, b});
    if (symmetry_ && a != b) out.push_back({b, a});
    return out;
  }

  // The legal keys with these students and Blue's student sets [first, end), folded.
  void legal_keys(int red, int blue, std::uint64_t first, std::uint64_t end,
                  const std::function<void(StateKey)>& emit) const {
    if (!symmetry_) return rules_.for_each_legal_key(red, blue, emit, first, end);
    rules_.for_each_legal_key(
        red, blue,
        [&](Key k) {
          if (rules_.canonical(k) == k) emit(k);
        },
        first, end);
  }

  Rules rules_;
  bool symmetry_;
  ExitSlots exits_;
};

std::unique_ptr<Game> make_onitama(std::vector<std::string> options) {
  if (options.empty()) options = {"3x3"};
  const bool symmetry =
      options.size() > 1 && (options.back() == "symmetry" || options.back() == "sym");
  if (symmetry) options.pop_back();
  return std::make_unique<OnitamaGame>(Rules::from_options(options), symmetry);
}

}  // namespace
}  // namespace zermelo::onitama

ZERMELO_REGISTER_GAME(onitama,
                      "Onitama on n x m boards with any five cards (options: board, cards, "
                      "optional 'symmetry'; default 3x3 boar)",
                      [](const std::vector<std::string>& options) {
                        return zermelo::onitama::make_onitama(options);
                      })
