// Sets of fixed-length strings stored as minimal layered DFAs ("Compressed Game Solving").
//
// A game position is written as a string of L characters (one per square, plus e.g. the side to
// move), character i drawn from a small alphabet of size alphabet(i). A set of positions is then a
// layered DFA: a state at layer i has one edge per character leading to layer i+1, and layer L has
// the single accepting state. All states of all sets live in one hash-consed table owned by a
// Manager (the quasi-reduced form of a multi-valued decision diagram with one shared dead state),
// so each language has exactly one state per layer: every set is its own minimal DFA, equal sets
// are the same root state, and sets share their common parts. Set operations are memoised
// recursions through a lossy operation cache.
//
// Memory is bounded: the node table never grows past the budget given to the Manager; an operation
// that would need more first garbage-collects (states not reachable from a live Set handle) and
// retries, and then throws DfaMemoryError, a clean refusal.
//
// With set_threads(2) the big operations (union, intersection, difference, the partitioned image)
// split their result by its first characters and build the parts on several threads at once, in
// the one shared table (see src/dfa/parallel.cpp); the sets are the same states as with one thread.
#pragma once
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "zermelo/util/huge_pages.hpp"

namespace zermelo::dfa {

using NodeId = std::uint32_t;
inline constexpr NodeId kEmptyNode = 0;   // the dead state: the empty language, at any layer
inline constexpr NodeId kAcceptNode = 1;  // layer L: the empty string

class DfaMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A relabelling of one string position: each pair (before, after) turns a string with `before`
// there into the same string with `after`; strings with other characters there are dropped.
// Several pairs may share an `after` (the results are united).
struct Relabel {
  unsigned position = 0;
  std::vector<std::pair<std::uint8_t, std::uint8_t>> pairs;
};

// The `change` of one move: the relabellings of the positions it touches (a linear map on the
// DFA's transitions; positions not listed keep their character).
struct Change {
  std::vector<Relabel> relabels;
  Change inverse() const;  // every (before, after) swapped: the un-move
};

class Set;

class Manager {
 public:
  // alphabet_sizes[i] = number of characters at string position i (2..255).
  Manager(std::vector<unsigned> alphabet_sizes, std::uint64_t memory_budget_bytes);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  unsigned length() const { return static_cast<unsigned>(alphabet_.size()); }
  unsigned alphabet(unsigned position) const { return alphabet_[position]; }
  unsigned arity() const { return arity_; }

  // Constructors of sets.
  Set empty();
  Set universe();  // every string
  Set singleton(const std::vector<std::uint8_t>& s);
  // The product set: strings whose i-th character is in allowed[i] (bit c = character c).
  Set cube(const std::vector<std::uint32_t>& allowed);
  // Strings whose character at `position` is `c` (any character elsewhere).
  Set with_char(unsigned position, std::uint8_t c);
  // A set built bottom-up from explicit states: used by the loader.
  NodeId make_node(unsigned layer, const NodeId* children);
  Set adopt(NodeId root);  // wraps a root made by make_node

  // A change is interned once and applied by id, so its results can be cached.
  using ChangeId = std::uint32_t;
  ChangeId intern(const Change& c);

  // Raw node access (for enumeration, serialization, statistics).
  NodeId child(NodeId n, unsigned c) const {
    return children_[static_cast<std::size_t>(n) * arity_ + c];
  }
  unsigned layer_of(NodeId n) const { return layer_[n]; }

  // Threads for the big operations: 1 (all on the calling thread) or 2. Operations are split only
  // while the table holds at least min_live_states states (small tables make small operations,
  // which the split would only slow down).
  static constexpr unsigned kMaxThreads = 2;
  static constexpr std::size_t kSplitMinLiveStates = std::size_t{1} << 16;
  void set_threads(unsigned n, std::size_t min_live_states = kSplitMinLiveStates);
  unsigned threads() const { return threads_; }
  // CPU time spent in the operations split over threads: all threads together, and the sum over
  // those operations of the busiest thread's share (what they would take on free cores).
  struct ParallelStats {
    std::size_t sections = 0;
    double cpu_seconds = 0, critical_seconds = 0;
  };
  const ParallelStats& parallel_stats() const { return parallel_; }

  // Table statistics.
  std::size_t live_nodes() const { return allocated_ - free_.size(); }
  std::size_t table_slots() const { return allocated_; }  // node ids are below this
  std::size_t peak_nodes() const { return peak_nodes_; }
  std::uint64_t table_bytes() const;
  std::uint64_t budget_bytes() const { return budget_; }
  std::size_t gc_runs() const { return gc_runs_; }
  // Frees the states no Set handle reaches. Operation-cache entries whose states all survive are
  // kept (the next operations are usually on the same sets).
  void collect_garbage();
  void clear_operation_cache();  // e.g. for benchmarks that want a cold cache

 private:
  friend class Set;
  enum Op : std::uint32_t {
    kUnion = 1,
    kIntersect = 2,
    kMinus = 3,
    kRestrict = 4,
    kChangeBase = 16
  };

  void ref(NodeId n) {
    if (n > kAcceptNode) ++refs_[n];
  }
  void unref(NodeId n) {
    if (n > kAcceptNode) --refs_[n];
  }

  // Runs a top-level operation; on table overflow collects garbage and retries once.
  NodeId run(const std::function<NodeId()>& op);

  NodeId apply(Op op, NodeId a, NodeId b, unsigned layer);  // a, b on `layer` (or dead/accept)
  NodeId apply_top(Op op, NodeId a, NodeId b);  // a top-level apply, split over the threads
  NodeId change_rec(ChangeId id, std::size_t relabel_index, NodeId n);
  NodeId restrict_rec(NodeId f, NodeId care, unsigned layer, const std::vector<NodeId>& full);
  NodeId change_all(NodeId root, const std::vector<ChangeId>& ids, NodeId within);
  NodeId find_or_add(unsigned layer, const NodeId* kids) {
    return workers_ > 1 ? find_or_add_shared(layer, kids) : find_or_add_alone(layer, kids);
  }
  NodeId find_or_add_alone(unsigned layer, const NodeId* kids);
  NodeId find_or_add_shared(unsigned layer,
                            const NodeId* kids);  // while several threads build states
  void grow_table();
  void rebuild_unique();
  void rebuild_unique_split();  // the same on two threads, each inserting half of the states
  std::uint64_t bytes_for_capacity(std::size_t capacity) const;

  bool cache_lookup(std::uint32_t op, NodeId a, NodeId b, NodeId& out) const;
  // The threads share the cache where a 16-byte aligned load or store is atomic (x86 with AVX:
  // a thread never reads half of an entry another is writing); elsewhere each thread has its own
  // part of it.
#if defined(__AVX__)
  static constexpr bool kSharedCache = true;
#else
  static constexpr bool kSharedCache = false;
#endif
  std::size_t cache_slot(std::uint64_t h) const {
    if (kSharedCache) return h & (cache_.size() - 1);
    const std::size_t part = cache_.size() >> worker_shift_;
    return this_worker_ * part + (h & (part - 1));
  }
  void cache_store(std::uint32_t op, NodeId a, NodeId b, NodeId r);

  std::vector<unsigned> alphabet_;
  unsigned arity_ = 0;
  std::uint64_t budget_ = 0;
  std::uint64_t tables_budget_ = 0;  // 4/5 of the budget: the rest is headroom for bookkeeping

  HugeVector<NodeId> children_;      // arity_ per node
  HugeVector<std::uint16_t> layer_;  // layer of each node; kDead for freed slots
  HugeVector<std::uint32_t> refs_;   // references from Set handles
  std::vector<NodeId> free_;
  std::size_t allocated_ = 2;  // slots in use (live + free)
  std::size_t capacity_ = 0;
  std::size_t max_capacity_ = 0;  // reserved at construction: the table grows in place up to it
  std::size_t peak_nodes_ = 2;
  std::size_t gc_runs_ = 0;
  std::size_t gc_threshold_ = 0;
  // Memos of an operation in progress, one a thread (counted against the budget).
  std::array<std::atomic<std::uint64_t>, kMaxThreads> scratch_bytes_{};
  std::uint64_t scratch_bytes() const;

  // ---- Several threads building states in one table (src/dfa/parallel.cpp).
  // run_tasks(count, task) runs task(0..count-1) on the threads; each thread has its own spare
  // node ids, and the table grows only while the other threads wait at a safe point (the start of
  // find_or_add).
  void run_tasks(std::size_t count, const std::function<void(std::size_t)>& task);
  void refill_spares(std::vector<NodeId>& spares);
  void wait_while_paused(std::unique_lock<std::mutex>& lock);
  void at_safe_point();
  // The number of strings of `depth` characters (prefixes; the last character least significant).
  std::size_t prefixes(unsigned depth) const;
  bool worth_splitting() const;
  unsigned split_depth() const;      // how many characters split an operation into tasks (at least)
  unsigned split_max_depth() const;  // (at most, when few tasks are distinct)
  static constexpr std::size_t kWantedTasks =
      256;  // a thread: enough that the threads end together
  // Builds the top `depth` layers over parts[prefix] (each on layer depth).
  NodeId assemble(const std::vector<NodeId>& parts, unsigned depth);

  struct Image;                               // one thread's state of a partitioned image
  static thread_local unsigned this_worker_;  // 0 on the calling thread, 1.. on the helpers
  unsigned threads_ = 1;
  std::size_t split_min_live_ = kSplitMinLiveStates;
  ParallelStats parallel_;
  unsigned workers_ = 1;       // threads building states right now (1 outside run_tasks)
  unsigned worker_shift_ = 0;  // log2(workers_): the cache is split into that many parts
  std::array<std::vector<NodeId>, kMaxThreads> spares_;
  std::mutex coord_;
  std::condition_variable coord_cv_;
  std::atomic<bool> attention_{false};  // pause_ or abort_: checked at every safe point
  bool pause_ = false, abort_ = false;
  unsigned running_ = 0;  // threads not waiting at a safe point and not finished

  // Open addressing, 0 = empty slot. A slot holds the node id in its low id_bits_ bits and the top
  // bits of the node's hash above them: a probe that meets another node is then usually rejected
  // without reading that node's children (a cache miss each).
  HugeVector<NodeId> unique_;
  unsigned id_bits_ = 32;
  NodeId id_mask_ = ~NodeId{0};
  NodeId unique_entry(std::uint64_t hash, NodeId n) const {
    return id_bits_ >= 32 ? n : n | static_cast<NodeId>(hash >> (32 + id_bits_)) << id_bits_;
  }
  // Whether entry e of the unique table is the state with these children (tag = its hash's bits).
  // Children that are not all dead fix the layer (they lie on the next one), so the layer needs no
  // look-up of its own: one memory access less per probe.
  bool entry_is(NodeId e, NodeId tag, const NodeId* kids) const {
    if ((e & ~id_mask_) != tag) return false;
    const NodeId* have = &children_[static_cast<std::size_t>(e & id_mask_) * arity_];
    unsigned c = 0;
    while (c < arity_ && have[c] == kids[c]) ++c;
    return c == arity_;
  }
  bool all_dead(const NodeId* kids) const;  // the children of the dead state
  // Two slots per node, any size (not a power of two: that doubled the table's bytes past each
  // power and left the budget to waste); the low 32 bits of the hash pick the slot, scaled.
  static std::size_t unique_slots_for(std::size_t capacity) { return 2 * capacity; }
  std::size_t unique_home(std::uint64_t hash) const {
    return static_cast<std::size_t>(((hash & 0xFFFFFFFFu) * unique_.size()) >> 32);
  }
  std::size_t unique_next(std::size_t slot) const {
    return slot + 1 == unique_.size() ? 0 : slot + 1;
  }

  struct alignas(16) CacheEntry {
    std::uint32_t op;
    NodeId a, b, r;
  };
  HugeVector<CacheEntry> cache_;

  std::vector<Change> changes_;  // interned, relabels sorted by position
};

// A handle on one set; keeps its states alive. The Manager must outlive every Set.
class Set {
 public:
  Set() = default;
  Set(Manager* m, NodeId root) : m_(m), root_(root) {
    if (m_) m_->ref(root_);
  }
  Set(const Set& o) : Set(o.m_, o.root_) {}
  Set(Set&& o) noexcept : m_(o.m_), root_(o.root_) {
    o.m_ = nullptr;
    o.root_ = kEmptyNode;
  }
  Set& operator=(const Set& o) {
    Set t(o);
    swap(t);
    return *this;
  }
  Set& operator=(Set&& o) noexcept {
    Set t(std::move(o));
    swap(t);
    return *this;
  }
  ~Set() {
    if (m_) m_->unref(root_);
  }
  void swap(Set& o) noexcept {
    std::swap(m_, o.m_);
    std::swap(root_, o.root_);
  }

  Manager* manager() const { return m_; }
  NodeId root() const { return root_; }
  bool is_empty() const { return root_ == kEmptyNode; }
  // Canonical form: equal sets have the same root.
  friend bool operator==(const Set& a, const Set& b) { return a.m_ == b.m_ && a.root_ == b.root_; }

  Set operator|(const Set& o) const;
  Set operator&(const Set& o) const;
  Set operator-(const Set& o) const;
  Set change(Manager::ChangeId id) const;
  // The union of change(id) over all ids, in one pass that shares the traversal of the common
  // parts (a partitioned image); equal to uniting the single changes, much faster for many moves.
  Set change_all(const std::vector<Manager::ChangeId>& ids) const;
  // change_all(ids) & within, without building the unrestricted image first.
  Set change_all_within(const std::vector<Manager::ChangeId>& ids, const Set& within) const;

  // A set that agrees with this one on `care` (result ∩ care = *this ∩ care) and is free outside
  // it, chosen to need few states (the "restrict" of BDD packages: where only one character is
  // cared for, the others copy its branch; where the set covers all of care, it becomes
  // everything). Usually smaller, not always: compare states() before using it.
  Set restrict_to(const Set& care) const;

  bool contains(const std::vector<std::uint8_t>& s) const;
  std::uint64_t count() const;  // number of strings (throws on 64-bit overflow)
  // count(), states() and bytes() in one walk over the set's states.
  struct Measure {
    std::uint64_t positions = 0;
    std::size_t states = 0;
    std::uint64_t bytes = 0;
  };
  Measure measure() const;
  std::size_t states() const;   // DFA states, the accepting one included, the dead one not
  std::uint64_t bytes() const;  // a standalone encoding: one 32-bit edge per transition
  // Calls f for every string in lexicographic order; stops early when f returns false.
  void enumerate(const std::function<bool(const std::vector<std::uint8_t>&)>& f) const;

 private:
  Manager* m_ = nullptr;
  NodeId root_ = kEmptyNode;
};

// Balanced union of many sets (cheaper than a left fold).
Set unite_all(std::vector<Set> sets, Manager& m);

}  // namespace zermelo::dfa
