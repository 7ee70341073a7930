// The in-RAM Onitama solvers (see solve.hpp).
#include "zermelo/games/onitama/solve.hpp"

#include <algorithm>
#include <chrono>
#include <set>

namespace zermelo::onitama {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Distinct parents of state k (folded by the symmetry if asked): un-moves of k, and of its twin.
void parent_keys(const Rules& rules, Key k, bool symmetry, std::vector<Key>& out) {
  out.clear();
  auto add = [&](const Position& q, const Move&) {
    Key pk = rules.encode(q);
    if (symmetry) pk = std::min(pk, rules.encode(rules.swapped(q)));
    out.push_back(pk);
  };
  const Position p = rules.decode(k);
  rules.for_each_parent(p, add);
  if (symmetry) {
    const Position s = rules.swapped(p);
    if (!(s == p)) rules.for_each_parent(s, add);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// Open addressing map from key to a dense index, for the weak solve's growing graph.
class KeyIndex {
 public:
  KeyIndex() { rehash(1 << 16); }
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::uint32_t find(Key k) const {
    for (std::size_t i = slot(k);; i = (i + 1) & mask_) {
      if (idx_[i] == kNone) return kNone;
      if (keys_[i] == k) return idx_[i];
    }
  }
  // Returns (index, inserted).
  std::pair<std::uint32_t, bool> insert(Key k) {
    if (2 * (size_ + 1) > keys_.size()) rehash(keys_.size() * 2);
    std::size_t i = slot(k);
    for (; idx_[i] != kNone; i = (i + 1) & mask_)
      if (keys_[i] == k) return {idx_[i], false};
    keys_[i] = k;
    idx_[i] = static_cast<std::uint32_t>(size_);
    return {static_cast<std::uint32_t>(size_++), true};
  }
  std::size_t size() const { return size_; }

 private:
  std::size_t slot(Key k) const { return (k * 0x9E3779B97F4A7C15ull >> 17) & mask_; }
  void rehash(std::size_t cap) {
    std::vector<Key> old_keys = std::move(keys_);
    std::vector<std::uint32_t> old_idx = std::move(idx_);
    keys_.assign(cap, 0);
    idx_.assign(cap, kNone);
    mask_ = cap - 1;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_idx[i] != kNone) {
        std::size_t j = slot(old_keys[i]);
        while (idx_[j] != kNone) j = (j + 1) & mask_;
        keys_[j] = old_keys[i];
        idx_[j] = old_idx[i];
      }
  }
  std::vector<Key> keys_;
  std::vector<std::uint32_t> idx_;
  std::size_t mask_ = 0, size_ = 0;
};

}  // namespace

Value StrongResult::value_of(const Rules& rules, Key k) const {
  if (symmetry) k = rules.canonical(k);
  if (k >= set.key_space() || !set.contains(k)) return Value::unknown();
  return Value::from_raw(values[set.index(k)]);
}

StrongResult solve_strong(const Rules& rules, bool symmetry) {
  StrongResult r;
  r.symmetry = symmetry;
  auto t0 = std::chrono::steady_clock::now();
  r.graph = explore(rules, symmetry, r.set);
  r.explore_seconds = since(t0);
  t0 = std::chrono::steady_clock::now();

  const std::uint64_t n = r.set.size();
  r.values.assign(n, Value::unknown().raw());
  std::vector<std::uint8_t> remaining(n, 0);
  std::vector<Key> frontier, next, keys;
  std::uint64_t next_index = 0;  // for_each visits keys in index order
  r.set.for_each([&](Key k) {
    const Position p = rules.decode(k);
    if (rules.is_terminal(p)) {
      r.values[next_index] = Value::loss(0).raw();
      frontier.push_back(k);
    } else if (symmetry) {  // children of one class may fold together
      child_keys(rules, k, symmetry, keys);
      remaining[next_index] = static_cast<std::uint8_t>(keys.size());
    } else {
      remaining[next_index] = static_cast<std::uint8_t>(rules.count_children(p));
    }
    ++next_index;
  });
  for (std::uint32_t d = 0; !frontier.empty(); ++d) {
    r.levels = d + 1;
    next.clear();
    for (Key c : frontier) {
      const Value v = Value::from_raw(r.values[r.set.index(c)]);
      parent_keys(rules, c, symmetry, keys);
      for (Key p : keys) {
        if (!r.set.contains(p)) continue;  // an unreachable parent
        const std::uint64_t i = r.set.index(p);
        if (Value::from_raw(r.values[i]).is_known()) continue;
        if (v.is_loss()) {
          r.values[i] = Value::win(d + 1).raw();
          next.push_back(p);
        } else if (--remaining[i] == 0) {
          r.values[i] = Value::loss(d + 1).raw();
          next.push_back(p);
        }
      }
    }
    std::swap(frontier, next);
  }
  for (auto& raw : r.values) {
    Value v = Value::from_raw(raw);
    if (!v.is_known()) raw = Value::draw().raw(), v = Value::draw();
    if (v.is_win())
      ++r.wins, r.longest_win = std::max(r.longest_win, v.plies());
    else if (v.is_loss())
      ++r.losses;
    else
      ++r.draws;
  }
  r.start_value = r.value_of(rules, rules.start());
  r.solve_seconds = since(t0);
  return r;
}

WeakResult solve_weak(const Rules& rules, bool symmetry) {
  WeakResult r;
  r.symmetry = symmetry;
  auto t0 = std::chrono::steady_clock::now();
  auto fold = [&](Key k) { return symmetry ? rules.canonical(k) : k; };
  constexpr std::uint8_t kUnexpanded = 0xFF;
  KeyIndex index;
  std::vector<std::uint16_t> value;     // Value::raw()
  std::vector<std::uint8_t> remaining;  // undecided children, or kUnexpanded
  std::vector<std::uint16_t> slowest;   // most plies among won children seen
  std::vector<Key> key_of;
  auto add = [&](Key k) {
    auto [i, inserted] = index.insert(k);
    if (inserted) {
      key_of.push_back(k);
      value.push_back(rules.is_terminal(rules.decode(k)) ? Value::loss(0).raw()
                                                         : Value::unknown().raw());
      remaining.push_back(kUnexpanded);
      slowest.push_back(0);
    }
    return std::pair{i, inserted};
  };
  const Key start = fold(rules.start());
  const std::uint32_t start_i = add(start).first;
  auto decided = [&](std::uint32_t i) { return Value::from_raw(value[i]).is_known(); };

  // Tell the expanded parents of newly decided states, transitively.
  std::vector<std::uint32_t> work;
  std::vector<Key> keys;
  auto propagate = [&](std::uint32_t first) {
    work.assign(1, first);
    while (!work.empty()) {
      const std::uint32_t c = work.back();
      work.pop_back();
      const Value v = Value::from_raw(value[c]);
      parent_keys(rules, key_of[c], symmetry, keys);
      for (Key pk : keys) {
        const std::uint32_t p = index.find(pk);
        if (p == KeyIndex::kNone || remaining[p] == kUnexpanded || decided(p)) continue;
        if (v.is_loss()) {
          value[p] = Value::win(v.plies() + 1).raw();
          work.push_back(p);
        } else {
          slowest[p] = static_cast<std::uint16_t>(std::max<std::uint32_t>(slowest[p], v.plies()));
          if (--remaining[p] == 0) {
            value[p] = Value::loss(slowest[p] + 1u).raw();
            work.push_back(p);
          }
        }
      }
    }
  };

  std::vector<std::uint32_t> frontier{start_i}, next;
  std::vector<Key> kids;
  while (!frontier.empty() && !decided(start_i)) {
    ++r.depth;
    next.clear();
    for (std::uint32_t s : frontier) {
      if (decided(s)) continue;
      child_keys(rules, key_of[s], symmetry, kids);
      ++r.expanded;
      std::uint32_t open = 0, fastest_loss = Value::kMaxPlies, slow = 0;
      bool win = false;
      for (Key ck : kids) {
        auto [c, inserted] = add(ck);
        if (inserted && !decided(c)) next.push_back(c);
        const Value v = Value::from_raw(value[c]);
        if (v.is_loss())
          win = true, fastest_loss = std::min(fastest_loss, v.plies());
        else if (v.is_win())
          slow = std::max(slow, v.plies());
        else
          ++open;
      }
      remaining[s] = static_cast<std::uint8_t>(open);
      slowest[s] = static_cast<std::uint16_t>(slow);
      if (win)
        value[s] = Value::win(fastest_loss + 1).raw();
      else if (open == 0)
        value[s] = Value::loss(slow + 1).raw();
      if (decided(s)) {
        propagate(s);
        if (decided(start_i)) break;
      }
    }
    std::swap(frontier, next);
  }
  r.start_value = decided(start_i) ? Value::from_raw(value[start_i]) : Value::draw();
  r.discovered = index.size();
  r.seconds = since(t0);
  return r;
}

std::map<Key, Value> solve_brute_force(const Rules& rules) {
  std::map<Key, std::vector<Key>> children;
  std::vector<Key> stack{rules.start()};
  while (!stack.empty()) {
    const Key k = stack.back();
    stack.pop_back();
    if (children.count(k)) continue;
    auto& list = children[k];
    rules.for_each_child(rules.decode(k),
                         [&](const Position& c, const Move&) { list.push_back(rules.encode(c)); });
    for (Key c : list) stack.push_back(c);
  }
  std::map<Key, Value> value;
  for (auto& [k, list] : children)
    if (list.empty()) value[k] = Value::loss(0);
  // Round k decides the states whose value is exactly "win/loss in k plies".
  for (std::uint32_t k = 1; k <= 2 * children.size() + 2; ++k) {
    std::map<Key, Value> found;
    for (auto& [s, list] : children) {
      if (value.count(s)) continue;
      bool all_won = true, any_loss = false;
      std::uint32_t slowest = 0;
      for (Key c : list) {
        auto it = value.find(c);
        if (it == value.end()) {
          all_won = false;
          continue;
        }
        if (it->second.is_loss() && it->second.plies() == k - 1) any_loss = true;
        if (it->second.is_win())
          slowest = std::max(slowest, it->second.plies());
        else
          all_won = false;
      }
      if (any_loss)
        found[s] = Value::win(k);
      else if (all_won && slowest == k - 1)
        found[s] = Value::loss(k);
    }
    if (found.empty()) break;  // nothing in k plies: nothing in k+1 either
    for (auto& kv : found) value.insert(kv);
  }
  for (auto& [k, list] : children)
    if (!value.count(k)) value[k] = Value::draw();
  return value;
}

}  // namespace zermelo::onitama
