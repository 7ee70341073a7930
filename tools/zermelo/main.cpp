// The `zermelo` command line: global options, then one subcommand registered by a cmd_*.cpp file.
// Errors surface as one clear line on stderr and a non-zero exit.
#include <malloc.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <thread>

#include "tools/zermelo/command.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::cli {

GlobalOptions& globals() {
  static GlobalOptions g;
  return g;
}

static std::multimap<int, CommandSetup>& commands() {
  static std::multimap<int, CommandSetup> c;
  return c;
}

bool register_command(int order, CommandSetup setup) {
  commands().emplace(order, std::move(setup));
  return true;
}

}  // namespace zermelo::cli

int main(int argc, char** argv) {
  using namespace zermelo;
  // A fixed mmap threshold: large buffers go straight back to the system when freed, instead of
  // glibc's adaptive threshold keeping them in the heap, so peak RSS tracks the memory budget.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  mallopt(M_ARENA_MAX, 2);
  auto& g = cli::globals();
  CLI::App app{"zermelo: strong and weak solving of two-player games, out of core"};
  app.require_subcommand(1);
  app.fallthrough();
  app.add_option("--work-dir", g.work_dir, "directory for run files, manifests and scratch")->capture_default_str();
  app.add_option("--memory", g.memory_text, "hard memory budget, e.g. 512M, 4G (default: half of RAM)");
  app.add_option("--threads", g.threads, "worker threads (default: all cores)");
  app.add_flag("--json", g.json, "machine-readable JSON on stdout");
  app.add_flag("--quiet", g.quiet, "no progress bars on stderr");
  app.parse_complete_callback([&] {
    g.memory_bytes = g.memory_text.empty() ? default_memory_budget() : parse_size(g.memory_text);
    if (g.threads == 0) g.threads = std::max(1u, std::thread::hardware_concurrency());
    Progress::set_enabled(!g.quiet);
  });
  for (auto& [order, setup] : cli::commands()) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "zermelo: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
