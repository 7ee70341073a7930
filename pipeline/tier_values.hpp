// Values of states in other tiers, looked up in key order by streaming their values runs side by
// side (each run sorted by key): the merge-join half of "children in lower tiers".
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::retro {

class TierValues {
 public:
  explicit TierValues(const std::vector<std::string>& paths) {
    for (auto& p : paths) {
      heads_.push_back(Head{std::make_unique<RunReader>(p), KeyValue{0, 0}, false});
      heads_.back().has = heads_.back().reader->next(heads_.back().kv);
    }
  }
  // Queries must come in non-decreasing key order. Unknown if no run holds the key.
  Value find(std::uint64_t key) {
    for (auto& h : heads_) {
      while (h.has && h.kv.key < key) h.has = h.reader->next(h.kv);
      if (h.has && h.kv.key == key) return Value::from_raw(h.kv.value);
    }
    return Value::unknown();
  }

 private:
  struct Head {
    std::unique_ptr<RunReader> reader;
    KeyValue kv;
    bool has;
  };
  std::vector<Head> heads_;
};

}  // namespace zermelo::retro
