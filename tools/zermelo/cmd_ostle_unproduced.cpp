// `zermelo ostle unproduced --tier T --out FILE [--expect DIGEST]`: the check that fixing the
// exact reading's states (2026-11-24) changed no value. The fix dropped the states "(board,
// nothing forbidden)" that no move can produce (zermelo/games/ostle/unproduced.hpp). This command
// lists them for a solved tier, values each from its children in the work dir's database, writes
// the tier's values run with them put back, and compares its digest with one recorded before the
// fix (bench/results/ostle.md): equal digests mean every other state kept its value bit for bit.
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/engine/perfect_play.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/games/ostle/game.hpp"
#include "zermelo/games/ostle/unproduced.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace ostle_unproduced_command {
namespace {

using namespace zermelo::ostle;

struct Args {
  std::string tier;
  std::string out;
  std::string expect;  // a digest in hex; empty: print only
};

struct Counts {
  std::uint64_t wins = 0, losses = 0, draws = 0;
};

// The classes of a tier: each of its materials with every hole square.
std::vector<int> tier_classes(const std::string& tier) {
  std::vector<int> out;
  for (int material : tier_materials(tier))
    for (int hole = 0; hole < kHoleClasses; ++hole) out.push_back(class_id(material, hole));
  return out;
}

// The value the definition gives a state: from its children, or its own terminal value.
zermelo::Value value_from_children(const zermelo::Game& game, zermelo::ValuesLookup& values,
                                   Key key) {
  const zermelo::Value rule = game.terminal_value(key);
  if (rule.is_known()) return rule;
  std::vector<zermelo::Child> kids;
  game.successors(key, kids);
  const std::size_t best = zermelo::perfect_move(values, kids);
  if (best == kids.size())
    throw std::runtime_error("state " + std::to_string(key) +
                             ": a child has no value here (are the tiers below solved?)");
  return zermelo::child_value(values, kids[best]).parent_via();
}

void run(const Args& a) {
  const auto& g = zermelo::cli::globals();
  zermelo::WorkDirLock lock(g.work_dir, zermelo::WorkDirLock::Mode::kRead, "ostle unproduced");
  const zermelo::SolvedDatabase db(g.work_dir, zermelo::cli::game_request({"ostle"}));
  if (!db.game().variant().empty())
    throw std::invalid_argument("ostle unproduced: the work dir holds ostle " +
                                db.game().variant() + "; the check is of the exact reading");
  const std::string& values = db.values(a.tier);  // an error naming the tier if unsolved
  const auto keys = unproduced_plain_states(tier_classes(a.tier), static_cast<int>(g.threads));
  zermelo::ValuesLookup lookup(db.all_values());
  std::vector<zermelo::KeyValue> extra;
  Counts put_back;
  for (Key k : keys) {
    const zermelo::Value v = value_from_children(db.game(), lookup, k);
    extra.push_back(zermelo::KeyValue{k, v.raw()});
    ++(v.is_win() ? put_back.wins : v.is_loss() ? put_back.losses : put_back.draws);
  }
  const zermelo::RunInfo info = zermelo::write_values_with(values, extra, a.out);
  const bool match = a.expect.empty() || a.expect == info.digest_hex();
  if (g.json) {
    nlohmann::json j{{"tier", a.tier},
                     {"states_put_back", extra.size()},
                     {"wins", put_back.wins},
                     {"losses", put_back.losses},
                     {"draws", put_back.draws},
                     {"records", info.record_count},
                     {"digest", info.digest_hex()}};
    if (!a.expect.empty()) j["expected"] = a.expect, j["match"] = match;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "ostle " << a.tier << ": " << extra.size() << " states put back (" << put_back.wins
              << " wins, " << put_back.losses << " losses, " << put_back.draws << " draws); "
              << info.record_count << " records, digest " << info.digest_hex() << "\n";
    if (!a.expect.empty())
      std::cout << (match ? "the same as " : "NOT the expected ") << a.expect << "\n";
  }
  if (!match) throw std::runtime_error("digest " + info.digest_hex() + " is not " + a.expect);
}

}  // namespace

ZERMELO_REGISTER_COMMAND(61, [](CLI::App& app) {
  auto* sub = app.get_subcommand("ostle")->add_subcommand(
      "unproduced",
      "put the states no move produces back into a solved tier's values run, and give its "
      "digest: the check that dropping them changed no other value");
  auto& a = zermelo::cli::command_options<Args>(sub, run);
  sub->add_option("--tier", a.tier, "4v4, 5v4+4v5 or 5v5 (solved in --work-dir)")->required();
  sub->add_option("--out", a.out, "where to write the values run with them put back")->required();
  sub->add_option("--expect", a.expect,
                  "the digest of the solve made before the fix (exit 1 if it differs)");
});

}  // namespace ostle_unproduced_command
