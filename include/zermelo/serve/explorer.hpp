// The answers of the web explorer's JSON API (`zermelo serve`, /api/...), apart from HTTP, so that
// they can be checked without a socket and so that one place decides what a request may ask.
//
// An Explorer reads one solved work dir through SolvedDatabase (the game and its options come from
// the manifest, every values run is the one the manifest records) and looks values up as `query`
// does: ValuesLookup binary-searches a run's block index and decodes the one block that can hold
// a key, so nothing is loaded whole. The explorer keeps one lookup a tier open for its lifetime
// (the blocks read stay indexed, the last block decoded stays cached), behind one mutex: the
// HTTP server answers on several threads.
//
// A request names a state by its text (the game's parse, or "start") or by its key. A key is
// taken only if a values run of the work dir holds it: every stored key is a state the game
// enumerated, so no decoder ever sees a key it did not make. Anything malformed is a BadRequest
// with a message for a person.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/pipeline/solved_database.hpp"

namespace zermelo {

// A request the explorer cannot answer as asked (HTTP 400), with what is wrong.
struct BadRequest : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

class Explorer {
 public:
  using Params = std::map<std::string, std::string>;  // a request's query parameters

  // `bfs_dir`: a breadth-first search's work dir whose levels /api/tables adds ("": none).
  explicit Explorer(const SolvedDatabase& db, std::string bfs_dir = "");

  // GET /api/game: the game, its variant and options, the solved tiers, the start's key.
  nlohmann::json game() const;
  // GET /api/position?state=TEXT or ?key=N: the state's picture, diagram, side to move, value,
  // key and tier, and every legal move with its value for the player making it.
  nlohmann::json position(const Params& params);
  // GET /api/line?state=TEXT|key=N[&max=M]: the line of perfect play from the state (the winner's
  // shortest, the loser's longest), at most M moves (default 200, at most 10000).
  nlohmann::json line(const Params& params);
  // GET /api/tables: states by plies for every solved tier (from each tier's manifest), and the
  // breadth-first search's new states per ply when a BFS dir was given.
  nlohmann::json tables() const;

  // The value of a state as stored (unknown if no solved tier holds it): the block lookup.
  Value value(StateKey key);

 private:
  StateKey state_of(const Params& params);
  ValuesLookup* lookup_for(StateKey key);  // null if the key's tier is not solved here

  const SolvedDatabase& db_;
  std::string bfs_dir_;
  std::mutex mutex_;
  // One lookup a solved tier: its own run first, then the others (a line of play crosses tiers).
  std::map<std::string, std::unique_ptr<ValuesLookup>> lookups_;
};

}  // namespace zermelo
