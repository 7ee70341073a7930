// A solved work dir opened for reading, so that no answer comes from a database other than the one
// asked about. The game and its options are read from the work dir's manifest (its checksum
// checked); a game or options given on the command line that disagree are an error naming both.
// Every values run is checked against the manifest's record of it (size, record count, digest,
// record type) before a key is looked up in it, so a run copied over another is refused.
#pragma once
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "zermelo/engine/value.hpp"
#include "zermelo/game.hpp"

namespace zermelo {

class RunReader;  // zermelo/io/run_file.hpp

// What a command line said of the game: nothing (take the manifest's), a name, or a name and
// options.
struct GameRequest {
  std::string name;                  // empty: the manifest's
  std::vector<std::string> options;  // compared only when options_given
  bool options_given = false;
};

class SolvedDatabase {
 public:
  // Throws a clear error if `work_dir` holds no finished solve, a damaged manifest, a values run
  // that is not the one recorded, or another game than `asked`.
  SolvedDatabase(const std::string& work_dir, const GameRequest& asked);

  const Game& game() const { return *game_; }
  const std::string& dir() const { return dir_; }
  bool solved(const std::string& tier) const { return values_.count(tier) > 0; }
  // The checked values run of `tier`; an error naming the tier if it is not solved here.
  const std::string& values(const std::string& tier) const;
  // The same run opened for reading, its digest checked again against the manifest's record: a
  // run replaced since the database was opened is refused, not read.
  std::unique_ptr<RunReader> open_values(const std::string& tier) const;
  std::vector<std::string> tiers() const;       // the solved ones, bottom-up
  std::vector<std::string> all_values() const;  // every solved tier's values run
  std::vector<std::string> values_below(const std::string& tier) const;  // the tiers it reads
  // A state's value (reads the block that can hold the key, in its tier's run).
  Value value(StateKey key) const;

 private:
  std::string dir_;
  std::unique_ptr<Game> game_;
  std::map<std::string, std::string> values_;   // tier -> values run, checked
  std::map<std::string, std::string> digests_;  // tier -> its recorded digest
};

// The manifest entry "game" every writer of a work dir records (Manifest::describe), from which
// readers make the same game again: name, options, variant.
nlohmann::json game_description(const Game& game);

// The game a work dir's manifest describes (name, options, variant checked), or the request's
// own when the directory has no manifest saying so; a disagreement is an error naming both.
std::unique_ptr<Game> game_of_work_dir(const std::string& work_dir, const GameRequest& asked);

}  // namespace zermelo
