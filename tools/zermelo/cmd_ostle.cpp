// `zermelo ostle ...`: Ostle's own commands. `count` enumerates positions and states by class
// (the full 2.7e9 positions in a few minutes on 2 cores), `show` prints a state with its moves,
// `bfs` (an alias of the generic `bfs ostle`) prints the breadth-first levels from the start,
// `puzzles` lists the sacrifice puzzles of a solved work dir. Human tables by default, JSON
// with --json.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "tools/zermelo/bfs.hpp"
#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "tools/zermelo/scratch_work_dir.hpp"
#include "zermelo/games/ostle/count.hpp"
#include "zermelo/games/ostle/game.hpp"
#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/puzzles.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/serve/board_picture.hpp"
#include "zermelo/serve/picture_file.hpp"
#include "zermelo/util/progress.hpp"

// A namespace of its own: the using-directive below stays out of the other commands compiled
// in the same unity file.
namespace ostle_command {
namespace {

using namespace zermelo::ostle;

std::string with_commas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

// "all", a material ("5v4"), a tier ("5v4+4v5") or one class ("5v4/a2").
std::vector<int> classes_of(const std::string& spec) {
  std::vector<int> out;
  for (int cls = 0; cls < kClasses; ++cls) {
    const std::string material = material_name(class_material(cls));
    const bool in_tier = spec == "5v4+4v5" && (material == "5v4" || material == "4v5");
    if (spec == "all" || spec == material || spec == class_name(cls) || in_tier) out.push_back(cls);
  }
  if (out.empty())
    throw std::invalid_argument("unknown class '" + spec +
                                "' (use all, 4v4, 4v5, 5v4, 5v5, 5v4+4v5, or a class like 5v4/a2; "
                                "mover's pieces first, hole square a1 a2 a3 b2 b3 c3)");
  return out;
}

// "exact" or "reference" (the published solver's reading of the repetition rule).
Reading reading_of(const std::string& name) {
  if (name == "exact") return Reading::kExact;
  if (name == "reference") return Reading::kPublished;
  throw std::invalid_argument("unknown reading '" + name + "' (use exact or reference)");
}

// The classes a list of specs names, each once, in class order.
std::vector<int> classes_of_all(const std::vector<std::string>& specs) {
  std::vector<int> classes;
  for (const auto& spec : specs)
    for (int cls : classes_of(spec))
      if (std::find(classes.begin(), classes.end(), cls) == classes.end()) classes.push_back(cls);
  std::sort(classes.begin(), classes.end());
  return classes;
}

nlohmann::json counts_json(const StateCounts& c) {
  return {{"positions", c.positions},
          {"checkmates", c.checkmates},
          {"states", c.states},
          {"nontrivial_states", c.nontrivial_states},
          {"forbidding_states", c.forbidding_states},
          {"nontrivial_forbidding", c.nontrivial_forbidding}};
}

void print_counts_json(const std::vector<int>& classes, const std::vector<StateCounts>& counts,
                       const StateCounts& total, Reading reading, double seconds) {
  nlohmann::json j;
  j["classes"] = nlohmann::json::array();
  for (std::size_t i = 0; i < classes.size(); ++i) {
    nlohmann::json row{{"class", class_name(classes[i])},
                       {"material", material_name(class_material(classes[i]))},
                       {"hole", square_name(kHoleReps[class_hole_index(classes[i])])}};
    row.update(counts_json(counts[i]));
    j["classes"].push_back(row);
  }
  j["total"] = counts_json(total);
  j["reading"] = reading == Reading::kExact ? "exact" : "reference";
  j["seconds"] = seconds;
  j["threads"] = zermelo::cli::globals().threads;
  std::cout << j.dump(2) << "\n";
}

void print_counts_text(const std::vector<int>& classes, const std::vector<StateCounts>& counts,
                       const StateCounts& total, double seconds) {
  std::ostringstream os;
  auto row = [&](const std::string& name, const StateCounts& c) {
    os << std::left << std::setw(10) << name << std::right << std::setw(16)
       << with_commas(c.positions) << std::setw(16) << with_commas(c.checkmates) << std::setw(17)
       << with_commas(c.states) << std::setw(17) << with_commas(c.nontrivial_states)
       << std::setw(17) << with_commas(c.nontrivial_forbidding) << "\n";
  };
  os << std::left << std::setw(10) << "class" << std::right << std::setw(16) << "positions"
     << std::setw(16) << "checkmates" << std::setw(17) << "states" << std::setw(17) << "non-trivial"
     << std::setw(17) << "nt forbidding"
     << "\n";
  for (std::size_t i = 0; i < classes.size(); ++i) row(class_name(classes[i]), counts[i]);
  // Per-material subtotals when more than one class of a material was counted.
  for (int m = 0; m < kMaterials; ++m) {
    StateCounts sub;
    int n = 0;
    for (std::size_t i = 0; i < classes.size(); ++i)
      if (class_material(classes[i]) == m) sub += counts[i], ++n;
    if (n > 1) row(material_name(m), sub);
  }
  row("total", total);
  os << "(states: position + forbidden move, possibly reachable; non-trivial: not checkmate; "
     << "nt forbidding: non-trivial with a forbidden move; " << std::fixed << std::setprecision(1)
     << seconds << " s on " << zermelo::cli::globals().threads << " threads)\n";
  std::cout << os.str();
}

void run_count(const std::vector<std::string>& specs, Reading reading) {
  const auto& g = zermelo::cli::globals();
  const std::vector<int> classes = classes_of_all(specs);
  std::uint64_t todo = 0;
  for (int cls : classes) todo += PositionIndex::get().size(cls);
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  const auto counts = count_classes(
      classes, static_cast<int>(g.threads),
      [&](std::uint64_t done) {
        const auto now = std::chrono::steady_clock::now();
        if (g.quiet || now - last < std::chrono::seconds(2)) return;
        last = now;
        std::cerr << "\rcounting: " << std::fixed << std::setprecision(1)
                  << 100.0 * static_cast<double>(done) / static_cast<double>(todo) << "% of "
                  << with_commas(todo) << " positions" << std::flush;
      },
      reading);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!g.quiet) std::cerr << "\r" << std::string(60, ' ') << "\r";
  StateCounts total;
  for (const auto& c : counts) total += c;
  if (g.json)
    print_counts_json(classes, counts, total, reading, seconds);
  else
    print_counts_text(classes, counts, total, seconds);
}

// The state as given (its own orientation), its canonical key, and every legal move with the
// state it leads to (from the next mover's point of view) or the end of the game; with `svg`,
// also the state's picture, the one `serve` and `query --svg` draw (of its canonical key).
void run_show(const std::string& text, const std::string& svg) {
  std::string error;
  const auto st = parse_state(text, &error);
  if (!st) throw std::invalid_argument(error);
  const auto [p, forbid] = *st;
  const Key key = state_key(p, forbid).key;
  if (!svg.empty()) zermelo::write_text_file(svg, zermelo::board_svg(*make_ostle_game(), key));
  const bool mate = is_checkmate(p);
  const MoveList moves = legal_moves(p, forbid);
  auto outcome_text = [](Outcome o) {
    return o == Outcome::kMoverWins ? "the mover wins" : "the mover loses";
  };
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"state", state_to_text(p, forbid)},
                     {"key", key},
                     {"class", class_name(key_class(key))},
                     {"rank", key_rank(key)},
                     {"checkmate", mate},
                     {"moves", nlohmann::json::array()}};
    for (const Move& m : moves) {
      const MoveResult r = apply_move(p, m);
      nlohmann::json jm{{"move", move_name(m)}};
      if (r.outcome != Outcome::kContinues)
        jm["ends_game"] = outcome_text(r.outcome);
      else
        jm["state"] = state_to_text(r.next, r.next_forbid),
        jm["key"] = state_key(r.next, r.next_forbid).key;
      j["moves"].push_back(jm);
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << diagram(p, forbid) << "key " << key << " (class " << class_name(key_class(key))
            << ", rank " << key_rank(key) << ")"
            << (mate ? ", checkmate: the mover wins at once" : "") << "\n"
            << moves.size << " legal moves (next states from the next mover's point of view):\n";
  for (const Move& m : moves) {
    const MoveResult r = apply_move(p, m);
    std::cout << "  " << move_name(m) << "  ";
    if (r.outcome != Outcome::kContinues)
      std::cout << "ends the game: " << outcome_text(r.outcome) << "\n";
    else
      std::cout << state_to_text(r.next, r.next_forbid)
                << (is_checkmate(r.next) ? "  (checkmate)" : "") << "\n";
  }
}

struct BfsAliasArgs {
  int plies = 5;
  std::string reading = "exact";
  bool play_restricted = false;
};

// An alias of the generic `bfs`, printing what it prints: `bfs ostle [reference]
// [play-restricted] --expand-decided --max-ply PLIES` (checkmates expanded: the levels count
// them) on a job of its own, in a scratch work dir.
void run_bfs(const BfsAliasArgs& a) {
  if (a.plies < 0 || a.plies > 7)
    throw std::invalid_argument("--plies must be 0..7 (for more: bfs ostle --max-ply N)");
  zermelo::cli::BfsArgs bfs;
  bfs.game = "ostle";
  if (reading_of(a.reading) == Reading::kPublished) bfs.options.push_back("reference");
  if (a.play_restricted) bfs.options.push_back("play-restricted");
  bfs.max_ply = static_cast<std::uint32_t>(a.plies);
  bfs.expand_decided = true;
  const zermelo::cli::ScratchWorkDir scratch("ostle-bfs");
  zermelo::Progress::set_enabled(false);
  zermelo::cli::run_bfs(bfs, scratch.path);
}

// The puzzles found in a solved database, and what they were looked for in.
struct PuzzleReport {
  const zermelo::SolvedDatabase& db;
  std::vector<std::string> unsolved;  // tiers of the game not solved in the work dir
  PuzzleScan scan;
  std::string definition;
};

std::string joined_moves(const std::vector<std::string>& moves) {
  std::string line;
  for (const auto& m : moves) line += (line.empty() ? "" : ",") + m;
  return line;
}

void print_puzzles_json(const PuzzleReport& r) {
  const zermelo::Game& game = r.db.game();
  nlohmann::json j{{"game", game.name()},
                   {"variant", game.variant()},
                   {"tiers", r.db.tiers()},
                   {"unsolved_tiers", r.unsolved},
                   {"states", r.scan.scanned},
                   {"won", r.scan.won},
                   {"puzzles", r.scan.puzzles},
                   {"definition", r.definition},
                   {"longest", nlohmann::json::array()}};
  j["mixed_positions"] = r.scan.mixed_groups;  // held as lists of lost states, not two bits
  j["positions"] = r.scan.positions;
  j["one_winning_move"] = r.scan.one_winning_move;
  j["by_tier"] = r.scan.by_tier;
  j["by_plies"] = nlohmann::json::object();
  for (const auto& [plies, n] : r.scan.by_plies) j["by_plies"][std::to_string(plies)] = n;
  for (const Puzzle& p : r.scan.longest)
    j["longest"].push_back({{"key", p.key},
                            {"plies", p.value.plies()},
                            {"line", joined_moves(p.line)},
                            {"diagram", game.render(p.key)}});
  std::cout << j.dump(2) << "\n";
}

void print_puzzles_text(const PuzzleReport& r) {
  const zermelo::Game& game = r.db.game();
  std::cout << game.name() << " " << game.variant() << ": " << with_commas(r.scan.puzzles)
            << " puzzles (won states, not checkmate, " << r.definition << ") among "
            << with_commas(r.scan.won) << " won of " << with_commas(r.scan.scanned) << " states";
  std::string tiers;
  for (const auto& t : r.db.tiers()) tiers += (tiers.empty() ? "" : ", ") + t;
  std::cout << " (tiers " << tiers;
  if (!r.unsolved.empty()) std::cout << "; not solved here: " << r.unsolved.size() << " more";
  std::cout << ")\n"
            << "  on " << with_commas(r.scan.positions) << " positions; "
            << with_commas(r.scan.one_winning_move) << " with one winning move only\n  by tier:";
  for (const auto& [tier, n] : r.scan.by_tier) std::cout << " " << tier << " " << with_commas(n);
  std::cout << "\n  by length (plies: puzzles):";
  for (const auto& [plies, n] : r.scan.by_plies) std::cout << " " << plies << ": " << n;
  std::cout << "\n";
  for (std::size_t i = 0; i < r.scan.longest.size(); ++i)
    std::cout << "\n#" << i + 1 << ": win in " << r.scan.longest[i].value.plies()
              << " plies: " << joined_moves(r.scan.longest[i].line) << "\n"
              << game.render(r.scan.longest[i].key);
}

void run_puzzles(const std::vector<std::string>& args, std::size_t limit, bool shortest_only) {
  const auto& g = zermelo::cli::globals();
  zermelo::WorkDirLock lock(g.work_dir, zermelo::WorkDirLock::Mode::kRead, "ostle puzzles");
  const zermelo::SolvedDatabase db(g.work_dir, zermelo::cli::game_request(args));
  const zermelo::Game& game = db.game();
  if (db.tiers().empty())
    throw std::invalid_argument("ostle puzzles: no tier of " + game.name() + " is solved in " +
                                g.work_dir);
  // Every solved tier: a tier is solved only with the tiers below it, which its moves reach.
  PuzzleReport r{
      db,
      {},
      find_puzzles(game, db.all_values(), ostle_sacrifices(game), limit, shortest_only,
                   static_cast<int>(g.threads), g.memory_bytes),
      shortest_only ? "every shortest winning move a sacrifice" : "every winning move a sacrifice"};
  for (const auto& tier : game.tiers())
    if (!db.solved(tier.name)) r.unsolved.push_back(tier.name);
  if (g.json)
    print_puzzles_json(r);
  else
    print_puzzles_text(r);
}

}  // namespace

ZERMELO_REGISTER_COMMAND(60, [](CLI::App& app) {
  auto* ostle = app.add_subcommand(
      "ostle", "Ostle: count positions and states, show a state, breadth-first levels");
  ostle->require_subcommand(1);

  auto* count = ostle->add_subcommand("count", "count positions, checkmates and states by class");
  auto specs = std::make_shared<std::vector<std::string>>();
  count->add_option(
      "--class", *specs,
      "all (default), 4v4, 4v5, 5v4, 5v5, 5v4+4v5, or one class like 5v4/a2; repeatable");
  auto reading = std::make_shared<std::string>("exact");
  count->add_option("--reading", *reading,
                    "exact (the rules as written, default) or reference (the published solver's)");
  count->callback([specs, reading] {
    run_count(specs->empty() ? std::vector<std::string>{"all"} : *specs, reading_of(*reading));
  });

  auto* show = ostle->add_subcommand(
      "show", "print a state (board text, optionally ':' and the forbidden move) and its moves");
  auto text = std::make_shared<std::string>();
  show->add_option("state", *text,
                   "e.g. 11111-00000-00300-00000-22222 or 11111-00300-00000-00000-22222:c2D")
      ->required();
  auto svg = std::make_shared<std::string>();
  show->add_option("--svg", *svg,
                   "also draw the state as an SVG picture into this file (its canonical "
                   "orientation, as `serve` shows it)");
  show->callback([text, svg] { run_show(*text, *svg); });

  auto* bfs =
      ostle->add_subcommand("bfs", "the generic `bfs ostle`, checkmates expanded, to a few plies");
  auto& b = zermelo::cli::command_options<BfsAliasArgs>(bfs, run_bfs);
  bfs->add_option("--plies", b.plies, "how many plies (default 5)");
  bfs->add_option("--reading", b.reading, "exact (default) or reference");
  bfs->add_flag("--play-restricted", b.play_restricted,
                "play the forbidden move too (the published search)");
  auto* puzzles = ostle->add_subcommand(
      "puzzles",
      "won states whose every winning move sacrifices a piece, from a solved --work-dir");
  auto game_args = std::make_shared<std::vector<std::string>>();
  auto limit = std::make_shared<std::size_t>(10);
  puzzles->add_option(
      "game", *game_args,
      "ostle or ostle-mini, then its options, as given to solve (default: the work dir's)");
  puzzles->add_option("--limit", *limit, "how many of the longest to print (default 10)");
  auto shortest = std::make_shared<bool>(false);
  puzzles->add_flag("--shortest-only", *shortest,
                    "only the shortest winning moves must all be sacrifices");
  puzzles->callback([game_args, limit, shortest] { run_puzzles(*game_args, *limit, *shortest); });
});

}  // namespace ostle_command
