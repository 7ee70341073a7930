// The web explorer's JSON API over a real socket (issue 23): on small games solved here, every
// value it shows is the value `query` reads (SolvedDatabase::value, and `query --json` itself for
// the start), the perfect line follows the values, and a seeded fuzz of the endpoints gets only
// answers (200, 400 or 404 with a JSON message), never a dead server.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "tests/json_value.hpp"
#include "tests/test_util.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/serve/explorer.hpp"
#include "zermelo/serve/http_server.hpp"

namespace zermelo {
namespace {

using nlohmann::json;
using testing::CommandResult;

using testing::run_cli_with_stderr;

// A solved work dir with the explorer serving it on a free port of 127.0.0.1.
class Served {
 public:
  Served(const std::string& dir, const std::string& game) : dir_(dir) {
    // In RAM: the same values run as out of core (the engine tests check it), without the
    // out-of-core passes' files, so each solve here takes a fraction of a second.
    CommandResult solve = run_cli_with_stderr("--work-dir " + dir + " solve " + game + " --in-ram");
    EXPECT_EQ(solve.code, 0) << solve.out;
    db_ = std::make_unique<SolvedDatabase>(dir, GameRequest{});
    explorer_ = std::make_unique<Explorer>(*db_);
    server_ = std::make_unique<ExplorerServer>(*explorer_);
    port_ = server_->bind("127.0.0.1", 0);
    thread_ = std::thread([this] { server_->run(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
  }
  ~Served() {
    server_->stop();
    thread_.join();
  }

  // GET path; the status, and the body read as JSON (every API answer is JSON).
  std::pair<int, json> get(const std::string& path) {
    auto res = client_->Get(path.c_str());
    if (!res) return {0, json()};
    if (path.rfind("/api/", 0) != 0 && res->status == 200) return {res->status, json(res->body)};
    json body = json::parse(res->body, nullptr, false);
    EXPECT_FALSE(body.is_discarded()) << path.substr(0, 200) << ": " << res->body.substr(0, 200);
    return {res->status, body};
  }
  json ok(const std::string& path) {
    auto [status, body] = get(path);
    EXPECT_EQ(status, 200) << path << ": " << body.dump();
    return body;
  }
  const SolvedDatabase& db() const { return *db_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::unique_ptr<SolvedDatabase> db_;
  std::unique_ptr<Explorer> explorer_;
  std::unique_ptr<ExplorerServer> server_;
  int port_ = 0;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
};

// Walks `steps` random moves from the start through the API, checking every value shown against
// the query code: the state's own, and each move's (its child's stored value, one ply more).
void walk_and_check(Served& s, std::uint64_t seed, int steps) {
  std::mt19937_64 rng(seed);
  json pos = s.ok("/api/position?state=start");
  const Game& g = s.db().game();
  for (int step = 0; step < steps; ++step) {
    const StateKey key = pos["key"];
    ASSERT_EQ(pos["value"], s.db().value(key).to_string()) << "key " << key;
    ASSERT_EQ(pos["tier"], g.tier_of(key));
    ASSERT_NE(pos["svg"].get<std::string>().find("<svg"), std::string::npos);
    std::vector<Child> kids;
    g.successors(key, kids);
    ASSERT_EQ(pos["moves"].size(), kids.size());
    std::vector<StateKey> playable;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const json& m = pos["moves"][i];
      const Value child = kids[i].is_terminal() ? kids[i].terminal : s.db().value(kids[i].key);
      EXPECT_EQ(m["value"], child.parent_via().to_string()) << "key " << key << " move " << i;
      EXPECT_EQ(m["move"], g.move_name(key, i));
      if (!kids[i].is_terminal()) playable.push_back(kids[i].key);
    }
    if (playable.empty()) return;
    const StateKey next = playable[rng() % playable.size()];
    pos = s.ok("/api/position?key=" + std::to_string(next));
  }
}

TEST(ExplorerServer, ValuesAreTheQueryValues) {
  testing::ScratchDir dir;
  for (const std::string game :
       {"tictactoe", "nim 3x4 tiered", "onitama 3x3", "ostle-mini 3x3:p2", "breakthrough 3x4"}) {
    SCOPED_TRACE(game);
    Served s(dir / game.substr(0, 3), game);
    const json info = s.ok("/api/game");
    EXPECT_EQ(info["game"], s.db().game().name());
    // The start as `query --json` prints it: value, and every move's name and value.
    CommandResult q = run_cli_with_stderr("--json --work-dir " + s.dir() + " query start");
    ASSERT_EQ(q.code, 0) << q.out;
    const json query = json::parse(q.out);
    const json start = s.ok("/api/position?state=start");
    EXPECT_EQ(start["value"], testing::value_text(query["value"]));  // the API's text form
    EXPECT_EQ(start["key"], query["key"]);
    ASSERT_EQ(start["moves"].size(), query["moves"].size());
    for (std::size_t i = 0; i < start["moves"].size(); ++i) {
      EXPECT_EQ(start["moves"][i]["move"], query["moves"][i]["move"]);
      EXPECT_EQ(start["moves"][i]["value"], testing::value_text(query["moves"][i]["value"]));
    }
    for (std::uint64_t seed = 1; seed <= 6; ++seed) walk_and_check(s, seed, 40);
  }
}

TEST(ExplorerServer, AWinningMoveLeavesTheOpponentLost) {
  testing::ScratchDir dir;
  Served s(dir / "ttt", "tictactoe");
  // X in a corner and O on an edge: X wins; each best move leaves O lost one ply sooner.
  const json pos = s.ok("/api/position?state=X.O......");
  EXPECT_EQ(pos["side"], "X");
  ASSERT_EQ(pos["outcome"], "win");
  int best = 0;
  for (const json& m : pos["moves"]) {
    if (!m["best"]) continue;
    ++best;
    EXPECT_EQ(m["value"], pos["value"]);
    const json after = s.ok("/api/position?key=" + std::to_string(m["key"].get<StateKey>()));
    EXPECT_EQ(after["side"], "O");
    EXPECT_EQ(after["outcome"], "loss");
    EXPECT_EQ(after["plies"].get<int>() + 1, pos["plies"].get<int>());
  }
  EXPECT_GT(best, 0);
  // The perfect line: values alternate win/loss, one ply fewer each move, to the end.
  const json line = s.ok("/api/line?state=X.O......");
  const json& steps = line["steps"];
  ASSERT_EQ(steps.size(), pos["plies"].get<std::size_t>() + 1);
  for (std::size_t i = 0; i < steps.size(); ++i)
    EXPECT_EQ(steps[i]["outcome"], i % 2 == 0 ? "win" : "loss") << i;
  EXPECT_EQ(steps.back()["value"], "loss in 0");
}

TEST(ExplorerServer, TablesComeFromTheManifests) {
  testing::ScratchDir dir;
  Served s(dir / "nim", "nim 3x3 tiered");
  const json t = s.ok("/api/tables");
  ASSERT_EQ(t["tiers"].size(), s.db().tiers().size());
  std::uint64_t states = 0;
  for (const json& tier : t["tiers"]) states += tier["states"].get<std::uint64_t>();
  EXPECT_EQ(states, 4u * 4u * 4u);  // every position of three heaps of 0..3
  EXPECT_TRUE(t["bfs"].is_null());
}

// Every answer to a malformed request is a 400 (404 for an unknown path) with a message.
TEST(ExplorerServer, MalformedRequestsGetAMessage) {
  testing::ScratchDir dir;
  Served s(dir / "ttt", "tictactoe");
  for (const std::string path :
       {"/api/position", "/api/position?state=start&key=0", "/api/position?key=-1",
        "/api/position?key=12x", "/api/position?key=99999999999999999999",
        "/api/position?key=4",              // two X, no O: no state of the database
        "/api/position?state=XXX/OOO/...",  // a board no game reaches: not in the database
        "/api/position?state=XXXXXXXXX", "/api/position?state=%00%ff",
        "/api/position?state=start&state=X........", "/api/line?state=start&max=10001",
        "/api/line?state=start&max=", "/api/line"}) {
    auto [status, body] = s.get(path);
    EXPECT_EQ(status, 400) << path << ": " << body.dump().substr(0, 200);
    EXPECT_FALSE(body.value("error", "").empty()) << path;
  }
  auto [status, body] = s.get("/api/nothing");
  EXPECT_EQ(status, 404);
}

// A seeded fuzz: random paths, parameters and bytes; every answer is an answer, and the server
// still serves afterwards.
TEST(ExplorerServer, FuzzedRequestsNeverEndTheServer) {
  testing::ScratchDir dir;
  for (const std::string game : {"tictactoe", "onitama 3x3"}) {
    Served s(dir / game.substr(0, 3), game);
    std::mt19937_64 rng(20261124);
    const std::vector<std::string> paths{
        "/api/position", "/api/line", "/api/game", "/api/tables",
        "/api/",         "/static/",  "/",         "/api/position/"};
    const std::vector<std::string> names{"state", "key", "max", "", "st ate", "key[]"};
    const std::string bytes = "XO.-/ rRbB0123456789%&=?#+\\\"'<>:;\x01\x7f\xc3\xa9\xff";
    auto random_text = [&](std::size_t most) {
      std::string t;
      for (std::size_t n = rng() % most; n > 0; --n) {
        const char ch = bytes[rng() % bytes.size()];
        if (ch == '%' || ch == '&' || ch == '=' || ch == '#' || ch == '?' || ch == '+') {
          static const char* hex = "0123456789abcdefABCDEFG";
          t += '%', t += hex[rng() % 23], t += hex[rng() % 23];
        } else if (const auto u = static_cast<unsigned char>(ch);
                   u < 0x20 || u >= 0x7f ||
                   std::string_view(" \"\\<>").find(ch) != std::string_view::npos) {
          static const char* hex = "0123456789ABCDEF";
          t += '%', t += hex[(static_cast<unsigned char>(ch) >> 4) & 15], t += hex[ch & 15];
        } else {
          t += ch;
        }
      }
      return t;
    };
    std::uint64_t answered = 0;
    for (int i = 0; i < 600; ++i) {
      std::string path = paths[rng() % paths.size()];
      const std::size_t params = rng() % 4;
      for (std::size_t p = 0; p < params; ++p) {
        path += p == 0 ? "?" : "&";
        path += names[rng() % names.size()] + "=";
        switch (rng() % 4) {
          case 0:
            path += std::to_string(rng() % 100000);
            break;
          case 1:
            path += std::to_string(rng());
            break;
          case 2:
            path += random_text(5000);
            break;
          default:
            path += random_text(40);
        }
      }
      auto [status, body] = s.get(path);
      const std::string shown = path.substr(0, 200);
      ASSERT_NE(status, 0) << "no answer to " << shown;
      // 414: a path longer than cpp-httplib reads.
      EXPECT_TRUE(status == 200 || status == 400 || status == 404 || status == 414)
          << status << " " << shown;
      if (status != 200) {
        EXPECT_TRUE(body.contains("error")) << shown;
      }
      ++answered;
    }
    EXPECT_EQ(answered, 600u);
    EXPECT_EQ(s.ok("/api/game")["game"], s.db().game().name());
  }
}

}  // namespace
}  // namespace zermelo
