// What a probe::Database holds, shared by the files that implement the probe API (database.cpp,
// values_run.cpp): the read lock on the work dir, the SolvedDatabase that binds every read to the
// work dir's manifest, and the pool of lookups the probing threads share. Every answer goes
// through `db`, so none comes from a database other than the one opened.
#pragma once
#include <string>
#include <vector>

#include "src/probe/lookup_pool.hpp"
#include "zermelo/engine/value.hpp"
#include "zermelo/game.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/probe.hpp"

namespace zermelo::probe {

struct Database::Impl {
  explicit Impl(const std::string& dir);

  // The value the database holds for a state; an error if it holds none. Every key a caller
  // gives goes through it before the game decodes the key.
  zermelo::Value known(ValuesLookup& lookup, StateKey key) const;
  zermelo::Value of_child(ValuesLookup& lookup, const Child& c) const;
  // The moves of a state the database holds (none once the rules decide it), in kids.
  void successors(ValuesLookup& lookup, StateKey key, std::vector<Child>& kids) const;
  // The move a perfect player makes among kids (kids.size(): none).
  std::size_t best(ValuesLookup& lookup, const std::vector<Child>& kids) const;
  // The i-th move of `key` (kids = its successors) with its value for the player who plays it.
  Move move(ValuesLookup& lookup, StateKey key, const std::vector<Child>& kids,
            std::size_t i) const;

  WorkDirLock lock;
  SolvedDatabase db;
  mutable LookupPool pool;
};

}  // namespace zermelo::probe
