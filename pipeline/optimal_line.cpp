// See include/zermelo/engine/optimal_line.hpp.
#include "zermelo/engine/optimal_line.hpp"

#include <algorithm>
#include <cstring>

namespace zermelo {

ValuesLookup::ValuesLookup(const std::vector<std::string>& values_runs) {
  for (auto& p : values_runs) {
    Run r{std::make_unique<RunReader>(p), {}, SIZE_MAX, {}};
    // Format 2 indexes every block's first key: the search then reads only the block it needs.
    if (r.reader->info().format_version >= 2)
      for (std::size_t b = 0; b < r.reader->info().blocks.size(); ++b)
        r.first_key[b] = r.reader->info().blocks[b].first_key;
    runs_.push_back(std::move(r));
  }
}

const std::vector<KeyValue>& ValuesLookup::block(Run& r, std::size_t b) {
  if (r.cached_block != b) {
    auto bytes = r.reader->read_block(b);
    r.cached.resize(bytes.size() / sizeof(KeyValue));
    std::memcpy(static_cast<void*>(r.cached.data()), bytes.data(),
                r.cached.size() * sizeof(KeyValue));
    r.cached_block = b;
    if (!r.cached.empty()) r.first_key[b] = r.cached.front().key;
  }
  return r.cached;
}

Value ValuesLookup::find_in(Run& r, StateKey key) {
  const std::size_t blocks = r.reader->info().blocks.size();
  if (blocks == 0) return Value::unknown();
  // The last block whose first key is <= key; first keys already seen narrow the search for free.
  std::size_t lo = 0, hi = blocks;
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    auto it = r.first_key.find(mid);
    const StateKey first = it != r.first_key.end() ? it->second : block(r, mid).front().key;
    (first <= key ? lo : hi) = mid;
  }
  const auto& kv = block(r, lo);
  auto it = std::lower_bound(kv.begin(), kv.end(), key,
                             [](const KeyValue& a, StateKey k) { return a.key < k; });
  return it != kv.end() && it->key == key ? Value::from_raw(it->value) : Value::unknown();
}

Value ValuesLookup::find(StateKey key) {
  for (auto& r : runs_) {
    Value v = find_in(r, key);
    if (v.is_known()) return v;
  }
  return Value::unknown();
}

std::vector<LineStep> optimal_line(const Game& game, ValuesLookup& values, StateKey from,
                                   std::size_t max_steps) {
  std::vector<LineStep> line;
  std::vector<Child> kids;
  StateKey s = from;
  for (std::size_t step = 0;; ++step) {
    LineStep here{s, values.find(s), "", Value::unknown()};
    const Value v = here.value;
    if (step == max_steps || !(v.is_win() || v.is_loss()) || v.plies() == 0) {
      line.push_back(here);
      break;
    }
    game.successors(s, kids);
    // The child each side wants: for a win, lost in plies-1; for a loss, won in plies-1.
    std::size_t pick = kids.size();
    for (std::size_t i = 0; i < kids.size() && pick == kids.size(); ++i) {
      const Value c = kids[i].is_terminal() ? kids[i].terminal : values.find(kids[i].key);
      if (v.is_win() ? c.is_loss() && c.plies() + 1 == v.plies()
                     : c.is_win() && c.plies() + 1 == v.plies())
        pick = i;
    }
    if (pick == kids.size()) {  // values inconsistent with the moves: stop rather than guess
      line.push_back(here);
      break;
    }
    here.move = game.move_name(s, pick);
    if (kids[pick].is_terminal()) {
      here.after = kids[pick].terminal;
      line.push_back(here);
      break;
    }
    line.push_back(here);
    s = kids[pick].key;
  }
  return line;
}

}  // namespace zermelo
