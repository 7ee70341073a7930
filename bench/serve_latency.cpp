// Latency of the web explorer's clicks (issue 23: under 50 ms a click on the solved Ostle
// database): `serve_latency WORK_DIR [CLICKS] [SEED]` serves WORK_DIR on a free port of
// 127.0.0.1, then plays CLICKS random moves from the start over HTTP, as the page does (one
// GET /api/position?key=N a click: the state, its picture, every move's value), going back to
// the start at the end of a game, and prints the latency percentiles of the clicks. START (default
// `start`) is where each walk begins: a state of the solved tier, for a work dir of one tier.
// Only moves into solved tiers are followed.
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/serve/explorer.hpp"
#include "zermelo/serve/http_server.hpp"

int main(int argc, char** argv) {
  using namespace zermelo;
  if (argc < 2) {
    std::cerr << "usage: serve_latency WORK_DIR [CLICKS] [SEED] [START]\n";
    return 2;
  }
  const std::size_t clicks = argc > 2 ? std::stoul(argv[2]) : 1000;
  std::mt19937_64 rng(argc > 3 ? std::stoull(argv[3]) : 1);
  const auto opened = std::chrono::steady_clock::now();
  SolvedDatabase db(argv[1], GameRequest{});
  Explorer explorer(db);
  ExplorerServer server(explorer);
  const int port = server.bind("127.0.0.1", 0);
  std::thread serving([&] { server.run(); });
  httplib::Client client("127.0.0.1", port);
  client.set_keep_alive(true);
  const double open_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - opened).count();

  std::vector<double> ms;
  const std::string start = "/api/position?state=" + std::string(argc > 4 ? argv[4] : "start");
  std::string next = start;
  for (std::size_t i = 0; i < clicks; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto res = client.Get(next.c_str());
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (!res || res->status != 200) {
      std::cerr << "serve_latency: " << next << ": " << (res ? res->body : "no answer") << "\n";
      server.stop();
      serving.join();
      return 1;
    }
    const auto pos = nlohmann::json::parse(res->body);
    std::vector<std::uint64_t> playable;
    for (auto& m : pos["moves"])
      if (!m["key"].is_null() && m.value("outcome", "unknown") != "unknown")
        playable.push_back(m["key"]);
    next = playable.empty()
               ? start
               : "/api/position?key=" + std::to_string(playable[rng() % playable.size()]);
  }
  server.stop();
  serving.join();
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double p) {
    const auto at = static_cast<std::size_t>(p * static_cast<double>(ms.size()));
    return ms[std::min(ms.size() - 1, at)];
  };
  std::string game = db.game().name();
  for (auto& o : db.game().options()) game += " " + o;
  std::printf("%s: %zu clicks, open %.1f ms; latency ms p50 %.2f p90 %.2f p99 %.2f max %.2f\n",
              game.c_str(), ms.size(), open_ms, pct(0.5), pct(0.9), pct(0.99), ms.back());
  return 0;
}
