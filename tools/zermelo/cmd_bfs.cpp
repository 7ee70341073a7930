// `zermelo bfs GAME`: breadth-first search from the start through the out-of-core pipeline.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/engine/bfs.hpp"
#include "zermelo/serve/table_charts.hpp"

ZERMELO_REGISTER_COMMAND(20, [](CLI::App& app) {
  static std::string game;
  static std::vector<std::string> options;
  static std::uint32_t max_ply = UINT32_MAX;
  static bool all_states = false;
  static bool expand_decided = false;
  static bool keep_plies = false;
  static std::vector<std::string> ply_of;
  static std::string plot;
  auto* sub = app.add_subcommand("bfs", "breadth-first search from the start: states per ply, edges (out of core, resumable)");
  sub->add_option("game", game, "game name")->required();
  sub->add_option("options", options, "game options");
  sub->add_option("--max-ply", max_ply, "stop after this many plies");
  sub->add_flag("--all-states", all_states,
                "keep a run of the states not visited yet (every state the game enumerates, shrinking) instead of the "
                "visited ones: for whole large games; also counts the states the start never reaches");
  sub->add_flag("--expand-decided", expand_decided,
                "also expand the states the rules decide (a player may decline an immediate win, e.g. an Ostle checkmate): "
                "reachability by legal moves instead of the solver's graph, where decided states have no children");
  sub->add_flag("--keep-plies", keep_plies, "keep every ply's run of new states (not only the deepest), for --ply-of");
  sub->add_option("--ply-of", ply_of, "after the search, the ply at which each of these states was first reached (needs --keep-plies)");
  sub->add_option("--plot", plot,
                  "also draw the new states per ply as an SVG chart into this file");
  sub->footer("Example: zermelo --work-dir work/ttt-bfs bfs tictactoe\n"
              "         zermelo --work-dir work/ostle-bfs bfs ostle --max-ply 8\n"
              "         zermelo --work-dir work/ostle-bfs-all --memory 4G bfs ostle --all-states\n"
              "         zermelo --work-dir work/ttt-plies bfs tictactoe --keep-plies --ply-of 'XO./.X./..O'");
  sub->callback([] {
    using namespace zermelo;
    auto g = make_game(game, options);
    WorkDirLock lock(cli::globals().work_dir, WorkDirLock::Mode::kWrite, "bfs " + game);
    BfsOptions o;
    o.job_dir = cli::globals().work_dir;
    o.memory_bytes = cli::globals().memory_bytes;
    o.threads = cli::globals().threads;
    o.max_ply = max_ply;
    o.all_states = all_states;
    o.expand_decided = expand_decided;
    o.keep_plies = keep_plies;
    if (!ply_of.empty() && !keep_plies) throw CLI::ValidationError("--ply-of", "needs --keep-plies (the search keeps each ply's states only then)");
    std::vector<StateKey> asked;
    for (const std::string& text : ply_of) {
      std::string error;
      auto key = g->parse(text, &error);
      if (!key) throw CLI::ValidationError("--ply-of", "'" + text + "' is not a state of " + g->name() + ": " + error);
      asked.push_back(*key);
    }
    BfsResult r = breadth_first(*g, o);
    std::vector<std::optional<std::uint32_t>> plies;
    BfsPlyLookup lookup(r.ply_runs);
    for (StateKey k : asked) plies.push_back(lookup.ply_of(k));
    if (!plot.empty()) write_text_file(plot, bfs_chart_svg(chart_title(*g), r.new_states));
    if (cli::globals().json) {
      nlohmann::json deepest = nlohmann::json::array();
      for (auto k : r.deepest) deepest.push_back(g->render(k));
      nlohmann::json doc{{"game", g->name()}, {"variant", g->variant()}, {"new_states_per_ply", r.new_states},
                                  {"states", r.states}, {"edges", r.edges}, {"game_ending_moves", r.game_ending_moves},
                                  {"terminal_states", r.terminal_states}, {"expand_decided", expand_decided}, {"deepest", deepest},
                                  {"resumed", r.resumed}};
      if (!asked.empty()) {
        nlohmann::json found = nlohmann::json::object();
        for (std::size_t i = 0; i < asked.size(); ++i) found[ply_of[i]] = plies[i] ? nlohmann::json(*plies[i]) : nlohmann::json(nullptr);
        doc["ply_of"] = found;
      }
      if (all_states) {
        doc["enumerated"] = r.enumerated, doc["unreached"] = r.unreached, doc["unreached_run"] = r.unreached_path;
        doc["filtered"] = r.filtered, doc["filter_bits_per_group"] = r.filter_bits, doc["keyless"] = r.keyless;
      } else {
        doc["visited"] = r.visited_path;
      }
      std::cout << doc.dump(2) << "\n";
      return;
    }
    std::cout << g->name() << " " << g->variant() << ": breadth-first from the start\n  ply  new states\n";
    for (std::size_t i = 0; i < r.new_states.size(); ++i) std::cout << std::setw(5) << i << "  " << r.new_states[i] << "\n";
    std::cout << "  states " << r.states << " (" << r.terminal_states << (expand_decided ? " decided by the rules, expanded" : " terminal")
              << "), edges " << r.edges << ", game-ending moves "
              << r.game_ending_moves << "\n";
    if (all_states)
      std::cout << "  enumerated " << r.enumerated << ", never reached from the start " << r.unreached << "; successors dropped by the filter "
                << r.filtered << " (" << r.filter_bits << " bits a group), left unkeyed (their group took the move before) " << r.keyless
                << "\n";
    for (std::size_t i = 0; i < asked.size(); ++i)
      std::cout << "  " << ply_of[i] << ": " << (plies[i] ? "first reached at ply " + std::to_string(*plies[i]) : std::string("never reached")) << "\n";
    std::cout << "  a deepest state (ply " << r.new_states.size() - 1 << "):\n";
    if (!r.deepest.empty()) std::cout << g->render(r.deepest.front());
  });
});
