// The `zermelo` command line: global options, then one subcommand registered by a cmd_*.cpp file.
// Errors surface as one clear line on stderr and a non-zero exit; so do bad option values (every
// unsigned option refuses negative and empty values) and interruptions (SIGINT, SIGTERM).
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <thread>

#include "tools/zermelo/command.hpp"
#include "zermelo/util/activity.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"
#ifdef ZERMELO_WITH_MPI
#include "zermelo/mpi/mpi_cluster.hpp"
#endif

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

namespace {

// Every file a run writes is complete and renamed or absent, and the manifest records finished
// stages only, so ending at once is as safe as a kill; the same command resumes.
extern "C" void on_interrupt(int sig) {
  const char* what = current_activity();
  auto say = [](const char* s) { (void)!::write(2, s, std::strlen(s)); };
  say("\nzermelo: interrupted");
  if (*what) say(" at "), say(what);
  say("; the same command resumes\n");
  ::_exit(128 + sig);
}

void on_interrupt_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// CLI11 reads "-1" into an unsigned option as 2^64-1 and "" as 0: both are refused here, on
// every unsigned option of every subcommand.
void refuse_negative_unsigned(CLI::App& app) {
  const CLI::Validator digits(
      [](std::string& s) {
        const bool ok = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
          return std::isdigit(c) != 0;
        });
        return ok ? std::string() : "'" + s + "' is not a non-negative whole number";
      },
      "UINT", "non-negative");
  for (CLI::Option* o : app.get_options())
    if (o->get_type_name() == "UINT") o->check(digits);
  for (CLI::App* sub : app.get_subcommands({})) refuse_negative_unsigned(*sub);
}

// The hard budget: given (--memory or ZERMELO_MEMORY), a size no more than the machine's RAM.
std::uint64_t memory_budget(const CLI::App& app, const std::string& text) {
  if (app.get_option("--memory")->count() == 0) return default_memory_budget();
  const std::uint64_t bytes = parse_size(text);
  if (bytes > physical_memory_bytes())
    throw std::invalid_argument("--memory (or ZERMELO_MEMORY) " + text +
                                " is more than this machine's RAM (" +
                                format_bytes(static_cast<double>(physical_memory_bytes())) + ")");
  return bytes;
}

}  // namespace
}  // namespace zermelo::cli

namespace {

// Under mpirun: the job's cluster (MPI initialised here, finalised when main returns), each rank
// but 0 in its own folder rank-<r> of the work dir and quiet (docs/distributed.md).
struct MpiJob {
#ifdef ZERMELO_WITH_MPI
  MpiJob(int& argc, char**& argv) : cluster(zermelo::MpiCluster::join_if_launched(argc, argv)) {}
  std::unique_ptr<zermelo::MpiCluster> cluster;
  zermelo::Cluster* get() const { return cluster.get(); }
  // An error on one rank ends every rank: the others would wait for it in their next exchange.
  int fail() const {
    if (cluster) cluster->abort_job();
    return 1;
  }
#else
  MpiJob(int&, char**&) {}
  zermelo::Cluster* get() const { return nullptr; }
  int fail() const { return 1; }
#endif
};

}  // namespace

int main(int argc, char** argv) {
  using namespace zermelo;
  // A fixed mmap threshold: large buffers go straight back to the system when freed, instead of
  // glibc's adaptive threshold keeping them in the heap, so peak RSS tracks the memory budget.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  mallopt(M_ARENA_MAX, 2);
  cli::on_interrupt_signals();
  const MpiJob mpi(argc, argv);
  auto& g = cli::globals();
  g.cluster = mpi.get();
  CLI::App app{"zermelo: strong and weak solving of two-player games, out of core"};
  app.require_subcommand(1);
  app.fallthrough();
  app.add_option("--work-dir", g.work_dir, "directory for run files, manifests and scratch")
      ->capture_default_str();
  app.add_option("--memory", g.memory_text,
                 "hard memory budget, e.g. 512M, 4G (default: $ZERMELO_MEMORY, else half of RAM)")
      ->envname("ZERMELO_MEMORY");
  app.add_option("--threads", g.threads, "worker threads (default: all cores)");
  app.add_flag("--json", g.json, "machine-readable JSON on stdout");
  app.add_flag("--quiet", g.quiet, "no progress bars on stderr");
  app.parse_complete_callback([&] {
    g.memory_bytes = cli::memory_budget(app, g.memory_text);
    if (g.work_dir.empty()) throw std::invalid_argument("--work-dir: an empty path");
    if (g.threads == 0) g.threads = std::max(1u, std::thread::hardware_concurrency());
    if (g.cluster && g.cluster->rank() > 0)
      g.work_dir += "/rank-" + std::to_string(g.cluster->rank()), g.quiet = true;
    Progress::set_enabled(!g.quiet);
  });
  for (auto& [order, setup] : cli::commands()) setup(app);
  cli::refuse_negative_unsigned(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    std::cerr << "zermelo: error: out of memory: an allocation failed (try a smaller --memory, or "
                 "free memory on this machine)\n";
    return mpi.fail();
  } catch (const std::exception& e) {
    std::cerr << "zermelo: error: " << e.what() << "\n";
    return mpi.fail();
  }
  return 0;
}
