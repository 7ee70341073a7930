// `zermelo bfs GAME`: breadth-first search from the start through the out-of-core pipeline.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/bfs.hpp"
#include "tools/zermelo/command.hpp"
#include "zermelo/engine/bfs.hpp"
#include "zermelo/engine/state_text.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/serve/picture_file.hpp"
#include "zermelo/serve/table_charts.hpp"

namespace zermelo::cli {
namespace {

// What was asked with --ply-of, and the ply each was first reached at.
struct PlyOf {
  std::vector<std::string> texts;
  std::vector<StateKey> keys;
  std::vector<std::optional<std::uint32_t>> plies;
};

PlyOf parse_ply_of(const Game& g, const BfsArgs& a) {
  if (!a.ply_of.empty() && !a.keep_plies)
    throw CLI::ValidationError("--ply-of",
                               "needs --keep-plies (the search keeps each ply's states only then)");
  PlyOf asked{a.ply_of, {}, {}};
  for (const std::string& text : a.ply_of) {
    try {
      asked.keys.push_back(read_state(g, text));
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError("--ply-of", e.what());
    }
  }
  return asked;
}

// What a state the search did not find is, in words: never reached, or not within the limit.
std::string not_found_words(const BfsArgs& a, const BfsResult& r) {
  return !r.complete ? "not reached by ply " + std::to_string(a.max_ply) + " (--max-ply)"
                     : std::string("never reached");
}

nlohmann::json bfs_json(const Game& g, const BfsArgs& a, const BfsResult& r, const PlyOf& asked) {
  nlohmann::json deepest = nlohmann::json::array();
  for (auto k : r.deepest) deepest.push_back(g.render(k));
  nlohmann::json doc{{"game", g.name()},
                     {"variant", g.variant()},
                     {"new_states_per_ply", r.new_states},
                     {"states", r.states},
                     {"edges", r.edges},
                     {"game_ending_moves", r.game_ending_moves},
                     {"terminal_states", r.terminal_states},
                     {"expand_decided", a.expand_decided},
                     {"deepest", deepest},
                     {"resumed", r.resumed},
                     {"complete", r.complete}};
  if (a.max_ply != UINT32_MAX) doc["max_ply"] = a.max_ply;
  if (!asked.keys.empty()) {
    nlohmann::json found = nlohmann::json::object();
    for (std::size_t i = 0; i < asked.keys.size(); ++i)
      found[asked.texts[i]] =
          asked.plies[i] ? nlohmann::json(*asked.plies[i]) : nlohmann::json(nullptr);
    doc["ply_of"] = found;
  }
  if (a.all_states) {
    // Cut short, the states left are only not reached yet: not "unreached", which says never.
    doc["enumerated"] = r.enumerated;
    doc[r.complete ? "unreached" : "not_reached_by_max_ply"] = r.unreached;
    doc["unreached_run"] = r.unreached_path;
    doc["filtered"] = r.filtered, doc["filter_bits_per_group"] = r.filter_bits,
    doc["keyless"] = r.keyless;
  } else {
    doc["visited"] = r.visited_path;
  }
  return doc;
}

void print_bfs_text(const Game& g, const BfsArgs& a, const BfsResult& r, const PlyOf& asked) {
  std::cout << g.name() << " " << g.variant()
            << ": breadth-first from the start\n  ply  new states\n";
  for (std::size_t i = 0; i < r.new_states.size(); ++i)
    std::cout << std::setw(5) << i << "  " << r.new_states[i] << "\n";
  std::cout << "  states " << r.states << " (" << r.terminal_states
            << (a.expand_decided ? " decided by the rules, expanded" : " terminal") << "), edges "
            << r.edges << ", game-ending moves " << r.game_ending_moves << "\n";
  if (a.all_states)
    std::cout << "  enumerated " << r.enumerated << ", " << not_found_words(a, r) << " "
              << r.unreached << "; successors dropped by the filter " << r.filtered << " ("
              << r.filter_bits << " bits a group), left unkeyed (their group took the move before) "
              << r.keyless << "\n";
  for (std::size_t i = 0; i < asked.keys.size(); ++i)
    std::cout << "  " << asked.texts[i] << ": "
              << (asked.plies[i] ? "first reached at ply " + std::to_string(*asked.plies[i])
                                 : not_found_words(a, r))
              << "\n";
  std::cout << "  a " << (r.complete ? "deepest state" : "state of the last ply searched")
            << " (ply " << r.new_states.size() - 1 << "):\n";
  if (!r.deepest.empty()) std::cout << g.render(r.deepest.front());
}

}  // namespace

void run_bfs(const BfsArgs& a, const std::string& dir) {
  auto g = make_game(a.game, a.options);
  if (!a.plot.empty()) check_picture_path(a.plot);  // a bad name fails now, not after the search
  WorkDirLock lock(dir, WorkDirLock::Mode::kWrite, "bfs " + a.game);
  BfsOptions o;
  o.job_dir = dir;
  o.memory_bytes = globals().memory_bytes;
  o.threads = globals().threads;
  o.max_ply = a.max_ply;
  o.all_states = a.all_states;
  o.expand_decided = a.expand_decided;
  o.keep_plies = a.keep_plies;
  o.shards = a.shards;
  o.cluster = globals().cluster;  // under mpirun: one shard a rank unless --shards says more
  if (o.cluster && o.shards == 1) o.shards = o.cluster->ranks();
  if (o.cluster && a.keep_plies)
    throw CLI::ValidationError("--keep-plies", "is for one process (each rank keeps its shards)");
  PlyOf asked = parse_ply_of(*g, a);
  BfsResult r = breadth_first(*g, o);
  BfsPlyLookup lookup(r.ply_runs);
  for (StateKey k : asked.keys) asked.plies.push_back(lookup.ply_of(k));
  if (globals().cluster && globals().cluster->rank() != 0) return;  // rank 0 reports
  if (!a.plot.empty())
    write_picture(a.plot, bfs_chart_svg(chart_title(*g), r.new_states, chart_scale(a.plot_scale)));
  if (globals().json)
    std::cout << bfs_json(*g, a, r, asked).dump(2) << "\n";
  else
    print_bfs_text(*g, a, r, asked);
}

namespace {

void setup_bfs(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "bfs", "breadth-first search from the start: states per ply, edges (out of core, resumable)");
  auto& a = command_options<BfsArgs>(sub, [](const BfsArgs& b) { run_bfs(b, globals().work_dir); });
  sub->add_option("game", a.game, "game name")->required();
  sub->add_option("options", a.options, "game options");
  sub->add_option("--max-ply", a.max_ply,
                  "stop after this many plies (the JSON's complete is then false, and states not "
                  "found are not reached by that ply rather than never reached)");
  sub->add_flag(
      "--all-states", a.all_states,
      "keep a run of the states not visited yet (every state the game enumerates, shrinking) "
      "instead of the "
      "visited ones: for whole large games; also counts the states the start never reaches");
  sub->add_flag("--expand-decided", a.expand_decided,
                "also expand the states the rules decide (a player may decline an immediate win, "
                "e.g. an Ostle checkmate): "
                "reachability by legal moves instead of the solver's graph, where decided states "
                "have no children");
  sub->add_flag("--keep-plies", a.keep_plies,
                "keep every ply's run of new states (not only the deepest), for --ply-of");
  sub->add_option("--shards", a.shards,
                  "with --all-states: cut the key space into this many shards, expanded, sorted "
                  "and merged at once (default 1, under mpirun one a rank; part of the job's "
                  "identity; docs/shards.md)")
      ->check(CLI::Range(1u, 4096u));
  sub->add_option("--ply-of", a.ply_of,
                  "after the search, the ply at which each of these states was first reached "
                  "(needs --keep-plies)");
  auto* plot = sub->add_option(
      "--plot", a.plot, "also draw the new states per ply as a chart into FILE.svg or FILE.png");
  sub->add_option("--plot-scale", a.plot_scale, "the chart's y axis: log (default) or linear")
      ->check(CLI::IsMember({"linear", "log"}))
      ->needs(plot);
  sub->footer(
      "Example: zermelo --work-dir work/ttt-bfs bfs tictactoe\n"
      "         zermelo --work-dir work/ostle-bfs bfs ostle --max-ply 8\n"
      "         zermelo --work-dir work/ostle-bfs-all --memory 4G bfs ostle --all-states\n"
      "         zermelo --work-dir work/mini-bfs bfs ostle-mini --all-states --shards 2\n"
      "         zermelo --work-dir work/ttt-plies bfs tictactoe --keep-plies --ply-of "
      "'XO./.X./..O'");
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(20, zermelo::cli::setup_bfs)
