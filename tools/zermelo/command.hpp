// How a subcommand of `zermelo` plugs into the CLI: each tools/zermelo/cmd_*.cpp registers a
// function that adds its CLI11 subcommand, so a new game's commands never touch main.cpp.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace zermelo {
class Cluster;  // zermelo/engine/cluster.hpp
}  // namespace zermelo

namespace zermelo::cli {

// Options every subcommand shares (set before any subcommand callback runs).
struct GlobalOptions {
  std::string work_dir = "work";
  std::string memory_text = "";    // as given, e.g. "4G"; empty = default
  std::uint64_t memory_bytes = 0;  // parsed: the hard budget
  unsigned threads = 0;            // 0 = all cores
  bool json = false;               // machine-readable output on stdout
  bool quiet = false;              // no progress bars
  Cluster* cluster = nullptr;      // the MPI job's, when started by mpirun (docs/distributed.md)
};
GlobalOptions& globals();

using CommandSetup = std::function<void(CLI::App& app)>;
bool register_command(int order, CommandSetup setup);

// A command's option values: one Options struct, owned by the subcommand's callback (so it lives
// as long as the parser, without a function-local static), handed to `run` once parsed.
template <class Options>
Options& command_options(CLI::App* sub, std::function<void(const Options&)> run,
                         Options defaults = {}) {
  auto options = std::make_shared<Options>(std::move(defaults));
  sub->callback([options, run = std::move(run)] { run(*options); });
  return *options;
}

// Prints a library report: its JSON with --json, else its text. The report's own namespace
// provides report_json(r) and report_text(r).
template <class Report>
void print_report(const Report& r) {
  if (globals().json)
    std::cout << report_json(r).dump(2) << "\n";
  else
    std::cout << report_text(r);
}

}  // namespace zermelo::cli

#define ZERMELO_CLI_CONCAT2(a, b) a##b
#define ZERMELO_CLI_CONCAT(a, b) ZERMELO_CLI_CONCAT2(a, b)
// ZERMELO_REGISTER_COMMAND(order, [](CLI::App& app) { auto* sub = app.add_subcommand(...); ... });
// Named by __COUNTER__, not __LINE__: two commands of one unity file may sit on the same line.
#define ZERMELO_REGISTER_COMMAND(order, ...)                        \
  static const bool ZERMELO_CLI_CONCAT(zermelo_cmd_, __COUNTER__) = \
      ::zermelo::cli::register_command(order, __VA_ARGS__);
