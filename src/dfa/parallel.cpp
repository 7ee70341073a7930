// Several threads building states in one manager (see include/zermelo/dfa/set.hpp).
//
// A big operation is split by the first `depth` characters of its result: the part of the result
// under each prefix is an independent operation one layer `depth` deep, and the prefixes' parts
// are disjoint, so the top `depth` layers are rebuilt from them with no union at all. The threads
// take those parts in turn. They share the node table: a new state is written first and then
// published in its unique-table slot with a compare-and-swap, so two threads that build the same
// state end with one (the table stays canonical: the sets are the very states one thread makes).
// The operation cache is shared too (see Manager::cache_slot); each thread has its own memo of
// the partitioned image and its own spare node ids. The table grows
// only while every other thread waits at a safe point (the start of find_or_add), and a table that
// cannot grow stops every thread, so Manager::run collects garbage and retries as with one thread.
#include <time.h>

#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <thread>

#include "src/dfa/table_internal.hpp"
#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa {
using detail::kDeadLayer, detail::Kids, detail::TableFull, detail::hash_node;

namespace {
constexpr std::size_t kSpareChunk = 1024;  // node ids a thread takes at once

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

void Manager::set_threads(unsigned n, std::size_t min_live_states) {
  threads_ = std::clamp(n, 1u, kMaxThreads);
  split_min_live_ = min_live_states;
}

void Manager::run_tasks(std::size_t count, const std::function<void(std::size_t)>& task) {
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads_, count));
  if (workers <= 1 || workers_ > 1) {  // one task, one thread, or already on the threads
    for (std::size_t t = 0; t < count; ++t) task(t);
    return;
  }
  workers_ = workers;
  worker_shift_ = 0;
  while ((1u << worker_shift_) < workers) ++worker_shift_;
  pause_ = abort_ = false;
  attention_.store(false);
  running_ = workers;
  // Thread 0 takes the tasks from the front, thread 1 from the back: neighbouring prefixes share
  // much of their work, which then stays in one thread's memo.
  static_assert(kMaxThreads == 2, "tasks are taken from the two ends");
  std::atomic<std::size_t> taken{0};
  std::exception_ptr error;
  std::array<double, kMaxThreads> cpu{};
  auto body = [&](unsigned worker) {
    this_worker_ = worker;
    const double cpu0 = thread_cpu_seconds();
    try {
      for (std::size_t mine = 0; taken.fetch_add(1) < count; ++mine)
        task(worker == 0 ? mine : count - 1 - mine);
    } catch (...) {
      std::lock_guard lock(coord_);
      if (!error) error = std::current_exception();
      abort_ = true;  // the other threads stop at their next safe point
      attention_.store(true);
    }
    cpu[worker] = thread_cpu_seconds() - cpu0;
    std::lock_guard lock(coord_);
    --running_;
    coord_cv_.notify_all();
  };
  std::vector<std::thread> helpers;
  for (unsigned w = 1; w < workers; ++w) helpers.emplace_back(body, w);
  body(0);
  for (auto& h : helpers) h.join();
  this_worker_ = 0;
  ++parallel_.sections;
  for (double c : cpu) parallel_.cpu_seconds += c;
  parallel_.critical_seconds += *std::max_element(cpu.begin(), cpu.end());
  // Back to one thread: unused spare ids return to the free list.
  for (auto& spares : spares_) {
    free_.insert(free_.end(), spares.begin(), spares.end());
    spares.clear();
  }
  workers_ = 1;
  worker_shift_ = 0;
  attention_.store(false);
  peak_nodes_ = std::max(peak_nodes_, live_nodes());
  if (error) std::rethrow_exception(error);
}

void Manager::wait_while_paused(std::unique_lock<std::mutex>& lock) {
  --running_;
  coord_cv_.notify_all();
  coord_cv_.wait(lock, [&] { return !pause_; });
  ++running_;
}

void Manager::at_safe_point() {
  std::unique_lock lock(coord_);
  if (pause_) wait_while_paused(lock);
  if (abort_) throw TableFull{};
}

void Manager::refill_spares(std::vector<NodeId>& spares) {
  std::unique_lock lock(coord_);
  while (true) {
    if (abort_) throw TableFull{};
    if (pause_) {  // another thread is growing the table
      wait_while_paused(lock);
      continue;
    }
    if (!free_.empty()) {
      const std::size_t take = std::min(kSpareChunk, free_.size());
      spares.assign(free_.end() - static_cast<long>(take), free_.end());
      free_.resize(free_.size() - take);
      return;
    }
    const std::size_t room = std::min<std::size_t>(capacity_, id_mask_);
    if (allocated_ < room) {
      const std::size_t take = std::min(kSpareChunk, room - allocated_);
      for (std::size_t i = 0; i < take; ++i)
        spares.push_back(static_cast<NodeId>(allocated_ + take - 1 - i));
      allocated_ += take;
      peak_nodes_ = std::max(peak_nodes_, live_nodes());
      return;
    }
    // The table is full: grow it while every other thread waits at a safe point (none is then
    // inside find_or_add, and none reads the cache or the unique table).
    pause_ = true;
    attention_.store(true);
    --running_;
    coord_cv_.wait(lock, [&] { return running_ == 0; });
    try {
      if (allocated_ >= id_mask_) throw TableFull{};
      grow_table();
    } catch (const TableFull&) {
      abort_ = true;
    }
    pause_ = false;
    if (!abort_) attention_.store(false);
    ++running_;
    coord_cv_.notify_all();
  }
}

void Manager::rebuild_unique_split() {
  // The states are all different: each thread claims empty slots with a compare-and-swap and
  // never needs to compare children.
  auto insert = [this](std::size_t from, std::size_t to) {
    for (std::size_t n = from; n < to; ++n) {
      if (layer_[n] == kDeadLayer) continue;
      const std::uint64_t h = hash_node(layer_[n], &children_[n * arity_], arity_);
      const NodeId entry = unique_entry(h, static_cast<NodeId>(n));
      for (std::size_t slot = unique_home(h);; slot = unique_next(slot)) {
        NodeId empty = kEmptyNode;
        if (std::atomic_ref<NodeId>(unique_[slot])
                .compare_exchange_strong(empty, entry, std::memory_order_relaxed))
          break;
      }
    }
  };
  const std::size_t middle = 2 + (allocated_ - 2) / 2;
  std::thread helper(insert, middle, allocated_);
  insert(2, middle);
  helper.join();
}

std::size_t Manager::prefixes(unsigned depth) const {
  std::size_t count = 1;
  for (unsigned i = 0; i < depth; ++i) count *= alphabet_[i];
  return count;
}

bool Manager::worth_splitting() const { return threads_ > 1 && live_nodes() >= split_min_live_; }

unsigned Manager::split_max_depth() const {
  // A few characters deeper at most, and not so deep that walking the prefixes costs much.
  unsigned depth = split_depth();
  while (depth + 1 < length() && depth < split_depth() + 3 &&
         prefixes(depth + 1) <= 64 * kWantedTasks * threads_)
    ++depth;
  return depth;
}

unsigned Manager::split_depth() const {
  // Enough parts that the threads finish close together although the parts differ in size.
  unsigned depth = 0;
  while (depth + 1 < length() && depth < 63 && prefixes(depth) < kWantedTasks * threads_) ++depth;
  return depth;
}

NodeId Manager::assemble(const std::vector<NodeId>& parts, unsigned depth) {
  std::vector<NodeId> level = parts;
  for (unsigned i = depth; i-- > 0;) {
    const unsigned a = alphabet_[i];
    std::vector<NodeId> up(level.size() / a);
    for (std::size_t p = 0; p < up.size(); ++p) {
      Kids kids{};
      std::copy(level.begin() + static_cast<long>(p * a),
                level.begin() + static_cast<long>((p + 1) * a), kids.begin());
      up[p] = find_or_add(i, kids.data());
    }
    level = std::move(up);
  }
  return level.front();
}

NodeId Manager::apply_top(Op op, NodeId a, NodeId b) {
  auto trivial = [](NodeId x, NodeId y) { return x == kEmptyNode || y == kEmptyNode || x == y; };
  if (!worth_splitting() || trivial(a, b)) return apply(op, a, b, 0);
  // levels[i]: the distinct pairs of states i characters down that need real work (pairs with an
  // empty or equal side are answered by apply's own shortcuts). Deeper while few are distinct.
  using Pair = std::pair<NodeId, NodeId>;
  std::vector<std::set<Pair>> levels{{Pair{a, b}}};
  const unsigned min_depth = split_depth(), max_depth = split_max_depth();
  while (!levels.back().empty()) {
    const unsigned depth = static_cast<unsigned>(levels.size() - 1);
    if (depth >= min_depth &&
        (levels.back().size() >= kWantedTasks * threads_ || depth >= max_depth))
      break;
    std::set<Pair> next;
    for (auto [x, y] : levels.back())
      for (unsigned c = 0; c < alphabet_[depth]; ++c)
        if (!trivial(child(x, c), child(y, c))) next.insert({child(x, c), child(y, c)});
    levels.push_back(std::move(next));
  }
  const unsigned depth = static_cast<unsigned>(levels.size() - 1);
  const std::vector<Pair> tasks(levels.back().begin(), levels.back().end());
  if (tasks.size() < 2) return apply(op, a, b, 0);  // nothing to share out
  std::vector<NodeId> results(tasks.size());
  run_tasks(tasks.size(),
            [&](std::size_t t) { results[t] = apply(op, tasks[t].first, tasks[t].second, depth); });
  // Back up: each level's states from the results of the level below.
  std::map<Pair, NodeId> below;
  for (std::size_t t = 0; t < tasks.size(); ++t) below[tasks[t]] = results[t];
  for (unsigned i = depth; i-- > 0;) {
    std::map<Pair, NodeId> here;
    for (auto [x, y] : levels[i]) {
      Kids kids{};
      for (unsigned c = 0; c < alphabet_[i]; ++c) {
        const NodeId cx = child(x, c), cy = child(y, c);
        kids[c] = trivial(cx, cy) ? apply(op, cx, cy, i + 1) : below.at({cx, cy});
      }
      here[{x, y}] = find_or_add(i, kids.data());
    }
    below = std::move(here);
  }
  return below.at({a, b});
}

}  // namespace zermelo::dfa
