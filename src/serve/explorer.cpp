// The explorer's JSON answers (explorer.hpp).
#include "zermelo/serve/explorer.hpp"

#include <charconv>

#include "zermelo/engine/state_text.hpp"
#include "zermelo/serve/board_picture.hpp"
#include "zermelo/serve/value_tables.hpp"

namespace zermelo {
using nlohmann::json;

namespace {

constexpr std::size_t kLongestState = 4096;  // characters of a state's text a request may send
constexpr std::size_t kDefaultLine = 200, kLongestLine = 10000;

std::string outcome(Value v) {
  return v.is_win() ? "win" : v.is_loss() ? "loss" : v.is_draw() ? "draw" : "unknown";
}

// A whole number written in decimal digits only, or a BadRequest naming the parameter.
std::uint64_t whole_number(const std::string& name, const std::string& text) {
  std::uint64_t n = 0;
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, n);
  if (text.empty() || error != std::errc() || at != end)
    throw BadRequest(name + "=" + text.substr(0, 40) +
                     ": not a whole number below 2^64 in decimal digits");
  return n;
}

const std::string* param(const Explorer::Params& p, const std::string& name) {
  auto it = p.find(name);
  return it == p.end() ? nullptr : &it->second;
}

}  // namespace

Explorer::Explorer(const SolvedDatabase& db, std::string bfs_dir)
    : db_(db), bfs_dir_(std::move(bfs_dir)) {
  const std::vector<std::string> tiers = db_.tiers();
  for (const std::string& tier : tiers) {
    std::vector<std::string> runs{db_.values(tier)};
    for (const std::string& other : tiers)
      if (other != tier) runs.push_back(db_.values(other));
    lookups_[tier] = std::make_unique<ValuesLookup>(runs);
  }
  // A wrong --bfs-dir fails at once, not on every page.
  if (!bfs_dir_.empty()) bfs_levels(bfs_dir_, db_.game());
}

ValuesLookup* Explorer::lookup_for(StateKey key) {
  auto it = lookups_.find(db_.game().tier_of(key));
  return it == lookups_.end() ? nullptr : it->second.get();
}

Value Explorer::value(StateKey key) {
  std::lock_guard lock(mutex_);
  ValuesLookup* lookup = lookup_for(key);
  return lookup ? lookup->find(key) : Value::unknown();
}

StateKey Explorer::state_of(const Params& params) {
  const std::string* text = param(params, "state");
  const std::string* key = param(params, "key");
  if ((text != nullptr) == (key != nullptr))
    throw BadRequest("name one state: state=TEXT (the game's text form, or 'start') or key=N");
  const Game& g = db_.game();
  if (key) {
    const StateKey k = whole_number("key", *key);
    // Only a key some values run holds: a decoder never sees a key the game did not make.
    bool stored = false;
    {
      std::lock_guard lock(mutex_);
      stored = !lookups_.empty() && lookups_.begin()->second->find(k).is_known();
    }
    if (!stored) throw BadRequest("key " + *key + " is not a state of this solved database");
    return k;
  }
  if (text->size() > kLongestState)
    throw BadRequest("the state's text is longer than " + std::to_string(kLongestState) +
                     " characters");
  StateKey k = 0;
  try {
    k = read_state(g, *text);
  } catch (const std::invalid_argument& e) {
    throw BadRequest(e.what());
  }
  // As for a key: a state of a solved tier that its run does not hold has no value to show (a
  // state of an unsolved tier is shown, its value unknown, tier_solved false).
  if (db_.solved(g.tier_of(k)) && !value(k).is_known())
    throw BadRequest("state " + text->substr(0, 40) + " is not a state of this solved database");
  return k;
}

json Explorer::game() const {
  const Game& g = db_.game();
  return {{"game", g.name()},     {"variant", g.variant()}, {"options", g.options()},
          {"tiers", db_.tiers()}, {"start_key", g.start()}, {"has_bfs", !bfs_dir_.empty()}};
}

json Explorer::position(const Params& params) {
  const Game& g = db_.game();
  const StateKey key = state_of(params);
  const std::string diagram = g.render(key);
  const Value v = value(key);
  std::vector<Child> kids;
  g.successors(key, kids);
  json moves = json::array();
  int best = INT32_MIN;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Child& c = kids[i];
    const Value child = c.is_terminal() ? c.terminal : value(c.key);
    const Value mine = child.parent_via();  // the move's value for the player making it
    if (mine.is_known()) best = std::max(best, mine.rank());
    moves.push_back({{"index", i},
                     {"move", g.move_name(key, i)},
                     {"key", c.is_terminal() ? json(nullptr) : json(c.key)},
                     {"ends_game", c.is_terminal()},
                     {"value", mine.to_string()},
                     {"outcome", outcome(mine)},
                     {"plies", mine.plies()},
                     {"rank", mine.rank()}});
  }
  for (auto& m : moves) m["best"] = m["outcome"] != "unknown" && m["rank"] == best;
  const std::string tier = g.tier_of(key);
  return {{"key", key},
          {"tier", tier},
          {"tier_solved", db_.solved(tier)},
          {"diagram", diagram},
          {"svg", board_svg(g, key)},
          {"side", side_to_move(diagram)},
          {"value", v.to_string()},
          {"outcome", outcome(v)},
          {"plies", v.plies()},
          {"terminal", g.terminal_value(key).is_known()},
          {"moves", moves}};
}

json Explorer::line(const Params& params) {
  const Game& g = db_.game();
  const StateKey from = state_of(params);
  std::size_t most = kDefaultLine;
  if (const std::string* m = param(params, "max")) {
    most = whole_number("max", *m);
    if (most > kLongestLine)
      throw BadRequest("max=" + *m + ": at most " + std::to_string(kLongestLine) + " moves");
  }
  std::vector<LineStep> steps;
  {
    std::lock_guard lock(mutex_);
    ValuesLookup* lookup = lookup_for(from);
    if (!lookup) throw BadRequest("tier " + g.tier_of(from) + " is not solved in this work dir");
    steps = optimal_line(g, *lookup, from, most);
  }
  json out = json::array();
  for (auto& s : steps)
    out.push_back({{"key", s.key},
                   {"value", s.value.to_string()},
                   {"outcome", outcome(s.value)},
                   {"side", side_to_move(g.render(s.key))},
                   {"move", s.move},
                   {"ends_game", s.after.is_known() ? s.after.to_string() : ""}});
  return {{"from", from}, {"steps", out}};
}

json Explorer::tables() const {
  json tiers = json::array();
  for (const TierTable& t : tier_tables(db_)) {
    json by = json::object();
    for (auto& [plies, count] : t.by_plies) by[std::to_string(plies)] = count;
    tiers.push_back({{"tier", t.tier},
                     {"states", t.states},
                     {"wins", t.wins},
                     {"losses", t.losses},
                     {"draws", t.draws},
                     {"by_plies", by}});
  }
  json bfs = nullptr;
  if (!bfs_dir_.empty()) bfs = {{"new_states", bfs_levels(bfs_dir_, db_.game())}};
  const Game& g = db_.game();
  return {{"game", g.name()}, {"variant", g.variant()}, {"tiers", tiers}, {"bfs", bfs}};
}

}  // namespace zermelo
