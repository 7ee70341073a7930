// `zermelo serve`: the web explorer of a solved work dir, on 127.0.0.1 unless told otherwise.
// The game and its options come from the work dir's manifest, values are read block by block
// as `query` reads them, and the work dir is held with a reader's lock while the server runs,
// so no solve rewrites the database under a page that shows it.
#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/serve/explorer.hpp"
#include "zermelo/serve/http_server.hpp"

namespace zermelo::cli {
namespace {

struct ServeArgs {
  std::vector<std::string> words;  // [GAME [OPTIONS...]]
  std::string host = "127.0.0.1";
  int port = 8023;
  std::string bfs_dir;
};

void run_serve(const ServeArgs& a) {
  const std::string dir = globals().work_dir;
  WorkDirLock lock(dir, WorkDirLock::Mode::kRead, "serve");
  SolvedDatabase db(dir, game_request(a.words));
  Explorer explorer(db, a.bfs_dir);
  ExplorerServer server(explorer);
  const int port = server.bind(a.host, a.port);
  const std::string host = a.host.find(':') == std::string::npos ? a.host : "[" + a.host + "]";
  const Game& g = db.game();
  // One line a script can read for the address (with --port 0 the port is chosen here).
  std::cout << "zermelo serve: " << g.name() << (g.variant().empty() ? "" : " " + g.variant())
            << " from " << dir << " at http://" << host << ":" << port << "/ (Ctrl-C stops)"
            << std::endl;
  // Ctrl-C or SIGTERM ends the server between requests: the signals go to one thread that
  // stops it, instead of the handler that tells a solve how to resume.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
  std::thread stopper([&] {
    int sig = 0;
    sigwait(&stops, &sig);
    server.stop();
  });
  server.run();
  pthread_kill(stopper.native_handle(), SIGTERM);  // when run() ended otherwise
  stopper.join();
  std::cout << "zermelo serve: stopped" << std::endl;
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(16, [](CLI::App& app) {
  using namespace zermelo::cli;
  auto* sub = app.add_subcommand(
      "serve", "a local web explorer of a solved --work-dir: boards, moves with values, charts");
  auto& a = command_options<ServeArgs>(sub, run_serve);
  zermelo::cli::add_game_words(sub, a.words);
  sub->add_option("--port", a.port, "TCP port (0: any free one, printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  sub->add_option("--host", a.host, "address to listen on (default 127.0.0.1: this machine only)")
      ->capture_default_str();
  sub->add_option("--bfs-dir", a.bfs_dir,
                  "a `zermelo bfs` work dir of the same game: its states per ply join the charts");
  sub->footer(
      "Open the printed address in a browser. The JSON API: /api/game, /api/position?state=TEXT "
      "(or ?key=N), /api/line?state=TEXT, /api/tables.\n"
      "Example: zermelo --work-dir work/default-onitama-3x4 serve\n"
      "         zermelo --work-dir work/ttt serve --port 0");
});
