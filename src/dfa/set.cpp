// The hash-consed layered-DFA table and the set operations on it (see include/zermelo/dfa/set.hpp).
#include "zermelo/dfa/set.hpp"

#include <immintrin.h>
#include <algorithm>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <set>

#include "src/dfa/table_internal.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::dfa {
using detail::kDeadLayer, detail::kMaxArity, detail::Kids, detail::TableFull, detail::mix,
    detail::hash_node;
namespace {}  // namespace

Change Change::inverse() const {
  Change inv = *this;
  for (auto& r : inv.relabels)
    for (auto& p : r.pairs) std::swap(p.first, p.second);
  return inv;
}

Manager::Manager(std::vector<unsigned> alphabet_sizes, std::uint64_t memory_budget_bytes)
    : alphabet_(std::move(alphabet_sizes)),
      budget_(memory_budget_bytes),
      tables_budget_(memory_budget_bytes / 5 * 4) {
  if (alphabet_.empty())
    throw std::invalid_argument("dfa: strings must have at least one character");
  if (alphabet_.size() >= kDeadLayer) throw std::invalid_argument("dfa: strings too long");
  for (unsigned a : alphabet_) {
    if (a < 1 || a > kMaxArity)
      throw std::invalid_argument("dfa: alphabet size " + std::to_string(a) + " out of range 1.." +
                                  std::to_string(kMaxArity));
    arity_ = std::max(arity_, a);
  }
  // The operation cache starts at up to 1/16 of the budget (at most 64 MiB) and grows with the
  // table.
  std::size_t entries = 1u << 10;
  while (entries < (1u << 22) && (entries * 2) * sizeof(CacheEntry) * 16 <= tables_budget_)
    entries *= 2;
  cache_.assign(entries, CacheEntry{0, 0, 0, 0});
  std::size_t initial = 1u << 12;
  if (bytes_for_capacity(initial) + entries * sizeof(CacheEntry) > tables_budget_)
    throw DfaMemoryError("dfa: memory budget " + format_bytes(static_cast<double>(budget_)) +
                         " is too small for even an empty node table");
  // The arrays reserve, once, the most the budget could ever let them hold: address space only
  // (pages are touched as the table grows into them), and growing never reallocates, so old and
  // new arrays never coexist and the whole budget can go to one table.
  max_capacity_ = std::min<std::size_t>(
      tables_budget_ / (bytes_for_capacity(1u << 20) / (1u << 20)), std::size_t{1} << 31);
  std::size_t max_slots = unique_slots_for(max_capacity_);
  std::size_t max_entries = entries;
  while ((max_entries * 2) * sizeof(CacheEntry) * 8 <= tables_budget_) max_entries *= 2;
  children_.reserve(max_capacity_ * arity_);
  layer_.reserve(max_capacity_);
  refs_.reserve(max_capacity_);
  unique_.reserve(max_slots);
  cache_.reserve(max_entries);
  capacity_ = initial;
  // Node ids stay below the largest capacity: the bits above them carry the hash tag.
  id_bits_ = 1;
  while (id_bits_ < 32 && (std::size_t{1} << id_bits_) <= std::max(max_capacity_, capacity_))
    ++id_bits_;
  id_mask_ = id_bits_ >= 32 ? ~NodeId{0} : static_cast<NodeId>((std::uint64_t{1} << id_bits_) - 1);
  children_.assign(capacity_ * arity_, kEmptyNode);
  layer_.assign(capacity_, kDeadLayer);
  refs_.assign(capacity_, 0);
  layer_[kEmptyNode] = kDeadLayer;  // the dead state has no layer of its own
  layer_[kAcceptNode] = static_cast<std::uint16_t>(length());
  unique_.assign(unique_slots_for(capacity_), kEmptyNode);
  gc_threshold_ = 1u << 20;
}

Manager::~Manager() = default;

std::uint64_t Manager::bytes_for_capacity(std::size_t capacity) const {
  // children + layer + refs per node, the free list and the collector's mark byte (each up to one
  // per node), and the unique table: a power of two ≥ 2 slots per node.
  std::uint64_t slots = unique_slots_for(capacity);
  return static_cast<std::uint64_t>(capacity) * (arity_ * sizeof(NodeId) + sizeof(std::uint16_t) +
                                                 sizeof(std::uint32_t) + sizeof(NodeId) + 1) +
         slots * sizeof(NodeId);
}

std::uint64_t Manager::scratch_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : scratch_bytes_) total += b.load(std::memory_order_relaxed);
  return total;
}

std::uint64_t Manager::table_bytes() const {
  return bytes_for_capacity(capacity_) + cache_.size() * sizeof(CacheEntry);
}

void Manager::grow_table() {
  std::size_t cache_bytes = cache_.size() * sizeof(CacheEntry);
  std::size_t want = capacity_ * 2;
  // The arrays were reserved up to max_capacity_: growing touches new pages, it does not copy.
  auto fits = [&](std::size_t cap) {
    return cap <= max_capacity_ &&
           bytes_for_capacity(cap) + cache_bytes + scratch_bytes() <= tables_budget_;
  };
  while (want > capacity_ && !fits(want)) want = capacity_ + (want - capacity_) / 2;
  if (want <= capacity_ + 1024) throw TableFull{};
  capacity_ = want;
  children_.resize(capacity_ * arity_, kEmptyNode);
  layer_.resize(capacity_, kDeadLayer);
  refs_.resize(capacity_, 0);
  // A lossy cache much smaller than the table makes operations recompute shared parts again and
  // again: keep about one entry per two states while it stays within 1/8 of the budget.
  std::size_t entries = cache_.size();
  while (entries < capacity_ / 2 && (entries * 2) * sizeof(CacheEntry) * 8 <= tables_budget_ &&
         bytes_for_capacity(capacity_) + entries * 2 * sizeof(CacheEntry) + scratch_bytes() <=
             tables_budget_)
    entries *= 2;
  if (entries != cache_.size()) cache_.assign(entries, CacheEntry{0, 0, 0, 0});
  std::size_t slots = unique_slots_for(capacity_);
  if (slots != unique_.size()) {
    unique_.assign(slots, kEmptyNode);
    rebuild_unique();
  }
}

void Manager::rebuild_unique() {
  std::fill(unique_.begin(), unique_.end(), kEmptyNode);
  if (threads_ > 1 && allocated_ > (std::size_t{1} << 20)) return rebuild_unique_split();
  for (std::size_t n = 2; n < allocated_; ++n) {
    if (layer_[n] == kDeadLayer) continue;
    std::uint64_t h = hash_node(layer_[n], &children_[n * arity_], arity_);
    std::size_t slot = unique_home(h);
    while (unique_[slot] != kEmptyNode) slot = unique_next(slot);
    unique_[slot] = unique_entry(h, static_cast<NodeId>(n));
  }
}

bool Manager::all_dead(const NodeId* kids) const {
  bool all = true;
  for (unsigned c = 0; c < arity_; ++c) all &= kids[c] == kEmptyNode;
  return all;
}

NodeId Manager::find_or_add_alone(unsigned layer, const NodeId* kids) {
  if (all_dead(kids)) return kEmptyNode;  // canonical: the empty language is the one dead state
  const std::uint64_t h = hash_node(layer, kids, arity_);
  const NodeId tag = unique_entry(h, 0);
  std::size_t slot = unique_home(h);
  while (true) {
    NodeId e = unique_[slot];
    if (e == kEmptyNode) break;
    if (entry_is(e, tag, kids)) return e & id_mask_;
    slot = unique_next(slot);
  }
  NodeId n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else {
    if (allocated_ >= capacity_) {
      grow_table();
      return find_or_add_alone(layer, kids);  // the unique table may have been rebuilt
    }
    if (allocated_ >= id_mask_) throw TableFull{};
    n = static_cast<NodeId>(allocated_++);
  }
  std::copy(kids, kids + arity_, &children_[static_cast<std::size_t>(n) * arity_]);
  layer_[n] = static_cast<std::uint16_t>(layer);
  refs_[n] = 0;
  unique_[slot] = unique_entry(h, n);
  peak_nodes_ = std::max(peak_nodes_, live_nodes());
  return n;
}

NodeId Manager::find_or_add_shared(unsigned layer, const NodeId* kids) {
  if (all_dead(kids)) return kEmptyNode;
  // A safe point: no probe is under way, so the table may grow here while this thread waits.
  if (attention_.load(std::memory_order_relaxed)) at_safe_point();
  std::vector<NodeId>& spares = spares_[this_worker_];
  if (spares.empty()) refill_spares(spares);
  const std::uint64_t h = hash_node(layer, kids, arity_);
  const NodeId tag = unique_entry(h, 0);
  std::size_t slot = unique_home(h);
  while (true) {
    std::atomic_ref<NodeId> cell(unique_[slot]);
    NodeId e = cell.load(std::memory_order_acquire);
    if (e == kEmptyNode) {
      // Write the new state, then publish it in the slot: a thread that sees the slot sees the
      // children. If another thread filled the slot first, look at what it put there.
      const NodeId n = spares.back();
      std::copy(kids, kids + arity_, &children_[static_cast<std::size_t>(n) * arity_]);
      layer_[n] = static_cast<std::uint16_t>(layer);
      refs_[n] = 0;
      if (cell.compare_exchange_strong(e, unique_entry(h, n), std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
        spares.pop_back();
        return n;
      }
      layer_[n] = kDeadLayer;  // still a spare
    }
    if (entry_is(e, tag, kids)) return e & id_mask_;
    slot = unique_next(slot);
  }
}

NodeId Manager::make_node(unsigned layer, const NodeId* children) {
  if (layer >= length()) throw std::invalid_argument("dfa: node layer out of range");
  Kids kids{};
  for (unsigned c = 0; c < arity_; ++c) {
    kids[c] = c < alphabet_[layer] ? children[c] : kEmptyNode;
    NodeId k = kids[c];
    if (k != kEmptyNode && layer_of(k) != layer + 1)
      throw std::invalid_argument("dfa: child of a layer-" + std::to_string(layer) +
                                  " node is not on the next layer");
  }
  NodeId result = kEmptyNode;
  try {
    result = find_or_add(layer, kids.data());
  } catch (const TableFull&) {
    throw DfaMemoryError("dfa: node table is full under the memory budget of " +
                         format_bytes(static_cast<double>(budget_)));
  }
  return result;
}

Set Manager::adopt(NodeId root) { return Set(this, root); }

thread_local unsigned Manager::this_worker_ = 0;

// An entry is read and written with one 16-byte aligned access each (see cache_slot). The empty
// asm holds the value in a register: without it the compiler may read the fields one by one,
// and a thread could then match the key of one entry and take the result of another.
bool Manager::cache_lookup(std::uint32_t op, NodeId a, NodeId b, NodeId& out) const {
  std::uint64_t h = mix((static_cast<std::uint64_t>(a) << 32 | b) ^
                        (static_cast<std::uint64_t>(op) * 0x9E3779B97F4A7C15ULL));
  __m128i entry = _mm_load_si128(reinterpret_cast<const __m128i*>(&cache_[cache_slot(h)]));
  asm("" : "+x"(entry));
  const __m128i key =
      _mm_set_epi32(0, static_cast<int>(b), static_cast<int>(a), static_cast<int>(op));
  if ((_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(entry, key))) & 0b0111) != 0b0111)
    return false;
  out = static_cast<NodeId>(_mm_extract_epi32(entry, 3));
  return true;
}

void Manager::cache_store(std::uint32_t op, NodeId a, NodeId b, NodeId r) {
  std::uint64_t h = mix((static_cast<std::uint64_t>(a) << 32 | b) ^
                        (static_cast<std::uint64_t>(op) * 0x9E3779B97F4A7C15ULL));
  __m128i entry = _mm_set_epi32(static_cast<int>(r), static_cast<int>(b), static_cast<int>(a),
                                static_cast<int>(op));
  asm("" : "+x"(entry));
  _mm_store_si128(reinterpret_cast<__m128i*>(&cache_[cache_slot(h)]), entry);
}

NodeId Manager::apply(Op op, NodeId a, NodeId b, unsigned layer) {
  switch (op) {
    case kUnion:
      if (a == kEmptyNode || a == b) return b;
      if (b == kEmptyNode) return a;
      if (a > b) std::swap(a, b);
      break;
    case kIntersect:
      if (a == kEmptyNode || b == kEmptyNode) return kEmptyNode;
      if (a == b) return a;
      if (a > b) std::swap(a, b);
      break;
    case kMinus:
      if (a == kEmptyNode || a == b) return kEmptyNode;
      if (b == kEmptyNode) return a;
      break;
    default:
      break;
  }
  // Both non-empty and distinct, hence on the same layer < L (layer L has only the accept state).
  NodeId r;
  if (cache_lookup(op, a, b, r)) return r;
  Kids kids{};
  for (unsigned c = 0; c < alphabet_[layer]; ++c)
    kids[c] = apply(op, child(a, c), child(b, c), layer + 1);
  r = find_or_add(layer, kids.data());
  cache_store(op, a, b, r);
  return r;
}

NodeId Manager::change_rec(ChangeId id, std::size_t ri, NodeId n) {
  const Change& ch = changes_[id];
  if (n == kEmptyNode) return kEmptyNode;
  if (ri == ch.relabels.size()) return n;  // below the last touched position nothing changes
  std::uint32_t op = kChangeBase + id;
  NodeId r;
  if (cache_lookup(op, n, 0, r)) return r;
  unsigned layer = layer_[n];
  const Relabel& rel = ch.relabels[ri];
  Kids kids{};
  if (layer < rel.position) {
    for (unsigned c = 0; c < alphabet_[layer]; ++c) kids[c] = change_rec(id, ri, child(n, c));
  } else {  // layer == rel.position
    for (auto [before, after] : rel.pairs) {
      NodeId sub = change_rec(id, ri + 1, child(n, before));
      kids[after] = apply(kUnion, kids[after], sub, layer + 1);
    }
  }
  r = find_or_add(layer, kids.data());
  cache_store(op, n, 0, r);
  return r;
}

NodeId Manager::restrict_rec(NodeId f, NodeId care, unsigned layer,
                             const std::vector<NodeId>& full) {
  // care is never empty here; f ∩ care is what must be kept.
  if (f == kEmptyNode || layer == length() || f == full[layer]) return f;
  if (f == care) return full[layer];  // f covers all of care: anything containing care will do
  NodeId r;
  if (cache_lookup(kRestrict, f, care, r)) return r;
  Kids kids{};
  int first_cared = -1;
  for (unsigned c = 0; c < alphabet_[layer]; ++c) {
    NodeId cc = child(care, c);
    if (cc == kEmptyNode) continue;
    kids[c] = restrict_rec(child(f, c), cc, layer + 1, full);
    if (first_cared < 0) first_cared = static_cast<int>(c);
  }
  for (unsigned c = 0; c < alphabet_[layer]; ++c)  // characters nobody cares about: share a branch
    if (child(care, c) == kEmptyNode) kids[c] = kids[static_cast<unsigned>(first_cared)];
  r = find_or_add(layer, kids.data());
  cache_store(kRestrict, f, care, r);
  return r;
}

namespace {

// A set of moves (up to 256) for the partitioned image.
struct MoveMask {
  std::array<std::uint64_t, 4> w{};
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
  MoveMask operator&(const MoveMask& o) const {
    MoveMask r;
    for (int i = 0; i < 4; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  MoveMask operator|(const MoveMask& o) const {
    MoveMask r;
    for (int i = 0; i < 4; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  MoveMask operator~() const {
    MoveMask r;
    for (int i = 0; i < 4; ++i) r.w[i] = ~w[i];
    return r;
  }
  void set(std::size_t b) { w[b / 64] |= 1ull << (b % 64); }
  bool operator==(const MoveMask& o) const { return w == o.w; }
};

// Move masks are interned: the memo's key is then three 32-bit words instead of 40 bytes (the
// masks repeat across the many states an image visits, so the table stays small).
class MaskTable {
 public:
  MaskTable() : slots_(1024, kFree) {}
  std::uint32_t intern(const MoveMask& m) {
    if (2 * (masks_.size() + 1) > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(m) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == kFree) {
        slots_[i] = static_cast<std::uint32_t>(masks_.size());
        masks_.push_back(m);
        return slots_[i];
      }
      if (masks_[slots_[i]] == m) return slots_[i];
    }
  }
  const MoveMask& operator[](std::uint32_t id) const { return masks_[id]; }

 private:
  static constexpr std::uint32_t kFree = ~0u;
  static std::uint64_t hash(const MoveMask& m) {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (auto x : m.w) h = mix(h ^ x);
    return h;
  }
  void grow() {
    slots_.assign(slots_.size() * 2, kFree);
    std::size_t mask = slots_.size() - 1;
    for (std::uint32_t id = 0; id < masks_.size(); ++id) {
      std::size_t i = hash(masks_[id]) & mask;
      while (slots_[i] != kFree) i = (i + 1) & mask;
      slots_[i] = id;
    }
  }
  std::vector<MoveMask> masks_;
  std::vector<std::uint32_t> slots_;
};

// One memo entry of the partitioned image: (state, restriction, mask id) -> result. A state is
// never the dead state in the memo (the recursion returns before), so n = 0 marks a free slot.
struct ImageEntry {
  NodeId n = kEmptyNode, within = 0;
  std::uint32_t mask = 0;
  NodeId result = 0;
};

// The per-call memo of the partitioned image: open addressing with a bounded probe. It doubles at
// half load while the manager's budget allows (its bytes count as the manager's scratch memory);
// past that it turns lossy, overwriting old entries, so a big image slows down instead of failing.
class ImageMemo {
 public:
  explicit ImageMemo(std::function<bool(std::uint64_t)> may_grow_to)
      : slots_(1024), may_grow_to_(std::move(may_grow_to)) {}
  bool find(NodeId n, NodeId w, std::uint32_t mask, NodeId& out) const {
    std::size_t m = slots_.size() - 1;
    std::size_t i = hash(n, w, mask) & m;
    for (unsigned probe = 0; probe < kMaxProbe; ++probe, i = (i + 1) & m) {
      const ImageEntry& e = slots_[i];
      if (e.n == kEmptyNode) return false;
      if (e.n == n && e.within == w && e.mask == mask) {
        out = e.result;
        return true;
      }
    }
    return false;
  }
  void insert(NodeId n, NodeId w, std::uint32_t mask, NodeId r) {
    if (!lossy_ && 2 * (count_ + 1) > slots_.size()) grow();
    place(n, w, mask, r);
  }
  std::uint64_t bytes() const { return slots_.size() * sizeof(ImageEntry); }
  bool lossy() const { return lossy_; }

 private:
  static constexpr unsigned kMaxProbe = 16;
  static std::uint64_t hash(NodeId n, NodeId w, std::uint32_t mask) {
    return mix((static_cast<std::uint64_t>(n) << 32 | w) ^ (mask + 1) * 0x9E3779B97F4A7C15ULL);
  }
  void place(NodeId n, NodeId w, std::uint32_t mask, NodeId r) {
    std::size_t m = slots_.size() - 1;
    std::size_t home = hash(n, w, mask) & m, i = home;
    for (unsigned probe = 0; probe < kMaxProbe; ++probe, i = (i + 1) & m)
      if (slots_[i].n == kEmptyNode) {
        slots_[i] = ImageEntry{n, w, mask, r};
        ++count_;
        return;
      }
    slots_[home] = ImageEntry{n, w, mask, r};  // lossy: the entry at its home slot gives way
  }
  void grow() {
    std::uint64_t next = 2 * bytes();
    if (!may_grow_to_(next + bytes())) {  // old and new arrays coexist while rehashing
      lossy_ = true;
      return;
    }
    HugeVector<ImageEntry> old = std::move(slots_);
    slots_.assign(old.size() * 2, ImageEntry{});
    count_ = 0;
    for (const ImageEntry& e : old)
      if (e.n != kEmptyNode) place(e.n, e.within, e.mask, e.result);
    may_grow_to_(bytes());
  }
  HugeVector<ImageEntry> slots_;
  std::function<bool(std::uint64_t)> may_grow_to_;
  std::size_t count_ = 0;
  bool lossy_ = false;
};

}  // namespace

// `within` restricts the result (kNoRestriction: none); it is walked alongside the output path so
// the image outside it is never built.
constexpr NodeId kNoRestriction = 0xFFFFFFFFu;

// One thread's share of a partitioned image: its own memo and interned masks (node table and
// operation cache are the manager's).
struct Manager::Image {
  Manager& m;
  // Per layer: which moves touch it, which moves have finished before it, and for every
  // (before, after) pair the moves that relabel it so.
  const std::vector<MoveMask>& touches;
  const std::vector<MoveMask>& finished;
  const std::vector<std::vector<MoveMask>>& pair_moves;
  ImageMemo memo;
  MaskTable masks;
  std::atomic<std::uint64_t>& scratch;

  Image(Manager& manager, const std::vector<MoveMask>& t, const std::vector<MoveMask>& f,
        const std::vector<std::vector<MoveMask>>& p)
      : m(manager),
        touches(t),
        finished(f),
        pair_moves(p),
        // The memo's bytes are scratch memory of the manager while the image runs: the node
        // table's growth counts them, and the memo grows only into what the table leaves.
        memo([this](std::uint64_t bytes) {
          const std::uint64_t others = m.scratch_bytes() - scratch.load(std::memory_order_relaxed);
          if (m.bytes_for_capacity(m.capacity_) + m.cache_.size() * sizeof(CacheEntry) + others +
                  bytes >
              m.tables_budget_ / 4 * 3)
            return false;
          scratch.store(bytes, std::memory_order_relaxed);
          return true;
        }),
        scratch(m.scratch_bytes_[this_worker_]) {
    scratch.store(memo.bytes(), std::memory_order_relaxed);
  }
  ~Image() { scratch.store(0, std::memory_order_relaxed); }

  // The image of the strings below n (on layer i) under the moves of mask that are still under
  // way there, within w. i is passed down rather than looked up: one memory access less.
  NodeId rec(NodeId n, std::uint32_t mask_id, NodeId w, unsigned i) {
    if (n == kEmptyNode || w == kEmptyNode) return kEmptyNode;
    const MoveMask mask = masks[mask_id];  // a copy: interning may move the table
    if (!mask.any()) return kEmptyNode;
    MoveMask done = mask & finished[i];
    if (done.any()) {  // those moves leave the rest of the string as it is
      MoveMask rest = mask & ~finished[i];
      NodeId same = w == kNoRestriction ? n : m.apply(kIntersect, n, w, i);
      return rest.any() ? m.apply(kUnion, same, rec(n, masks.intern(rest), w, i), i) : same;
    }
    NodeId known;
    if (memo.find(n, w, mask_id, known)) return known;
    MoveMask untouched = mask & ~touches[i];
    Kids kids{};
    for (unsigned c2 = 0; c2 < m.alphabet_[i]; ++c2) {
      NodeId w2 = w == kNoRestriction ? kNoRestriction : m.child(w, c2);
      if (w2 == kEmptyNode) continue;
      for (unsigned c = 0; c < m.alphabet_[i]; ++c) {
        NodeId sub = m.child(n, c);
        if (sub == kEmptyNode) continue;
        MoveMask go = mask & pair_moves[i][c * m.arity_ + c2];
        if (c == c2) go = go | untouched;
        if (!go.any()) continue;
        kids[c2] = m.apply(kUnion, kids[c2], rec(sub, masks.intern(go), w2, i + 1), i + 1);
      }
    }
    NodeId r = m.find_or_add(i, kids.data());
    memo.insert(n, w, mask_id, r);
    return r;
  }
};

namespace {

// What an image still has to do below one prefix of its output: the states it reads there, each
// with the moves still under way (mask) and whether some move has already finished (ident: the
// state's strings are copied as they are).
struct Pending {
  NodeId n;
  MoveMask mask;
  bool ident;
  bool operator<(const Pending& o) const {
    if (n != o.n) return n < o.n;
    if (ident != o.ident) return ident < o.ident;
    return o.mask.w > mask.w;
  }
};
struct PrefixWork {
  NodeId within;
  std::vector<Pending> pending;  // sorted by state, one entry a state
  bool operator<(const PrefixWork& o) const {
    if (within != o.within) return within < o.within;
    if (pending.size() != o.pending.size()) return pending.size() < o.pending.size();
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (pending[i] < o.pending[i]) return true;
      if (o.pending[i] < pending[i]) return false;
    }
    return false;
  }
};

}  // namespace

NodeId Manager::change_all(NodeId root, const std::vector<ChangeId>& ids, NodeId within) {
  if (ids.size() > 256) {  // split: the mask holds 256 moves
    NodeId acc = kEmptyNode;
    for (std::size_t i = 0; i < ids.size(); i += 256) {
      std::vector<ChangeId> part(ids.begin() + static_cast<long>(i),
                                 ids.begin() + static_cast<long>(std::min(ids.size(), i + 256)));
      acc = apply_top(kUnion, acc, change_all(root, part, within));
    }
    return acc;
  }
  const unsigned L = length();
  std::vector<MoveMask> touches(L + 1), finished(L + 1);
  std::vector<std::vector<MoveMask>> pair_moves(L, std::vector<MoveMask>(arity_ * arity_));
  for (std::size_t m = 0; m < ids.size(); ++m) {
    const Change& ch = changes_[ids[m]];
    unsigned last = 0;
    for (const Relabel& r : ch.relabels) {
      touches[r.position].set(m);
      for (auto [b, a] : r.pairs) pair_moves[r.position][b * arity_ + a].set(m);
      last = r.position + 1;
    }
    for (unsigned i = last; i <= L; ++i) finished[i].set(m);
  }
  MoveMask all;
  for (std::size_t m = 0; m < ids.size(); ++m) all.set(m);
  if (!worth_splitting()) {
    Image image(*this, touches, finished, pair_moves);
    return image.rec(root, image.masks.intern(all), within, 0);
  }

  // Several threads: split the output by its first `depth` characters. For each prefix, follow
  // the recursion of Image::rec down to layer `depth` (cheap: a few states a layer) and collect
  // what is pending there; equal work for different prefixes is done once.
  // Prefixes that lead to the same work are one task; when few tasks remain distinct, one more
  // character splits them further (a few big tasks leave a thread idle at the end).
  std::vector<std::vector<Pending>> level{{Pending{root, all, false}}};
  std::vector<NodeId> level_within{within};
  auto distinct_tasks = [&] {
    std::set<PrefixWork> distinct;
    for (std::size_t p = 0; p < level.size(); ++p)
      distinct.insert(PrefixWork{level_within[p], level[p]});
    return distinct.size();
  };
  const unsigned min_depth = split_depth(), max_depth = split_max_depth();
  unsigned depth = 0;
  for (; depth < min_depth || (depth < max_depth && distinct_tasks() < kWantedTasks * threads_);
       ++depth) {
    const unsigned i = depth;
    std::vector<std::vector<Pending>> next;
    std::vector<NodeId> next_within;
    for (std::size_t p = 0; p < level.size(); ++p) {
      for (unsigned c2 = 0; c2 < alphabet_[i]; ++c2) {
        NodeId w = level_within[p];
        NodeId w2 =
            w == kNoRestriction ? kNoRestriction : (w == kEmptyNode ? kEmptyNode : child(w, c2));
        std::map<NodeId, Pending> below;
        auto add = [&](NodeId n, const MoveMask& mask, bool ident) {
          if (n == kEmptyNode || (!ident && !mask.any())) return;
          auto [it, fresh] = below.try_emplace(n, Pending{n, mask, ident});
          if (!fresh) it->second.mask = it->second.mask | mask, it->second.ident |= ident;
        };
        if (w2 != kEmptyNode)
          for (const Pending& pd : level[p]) {
            if (pd.ident) add(child(pd.n, c2), MoveMask{}, true);
            MoveMask mask = pd.mask;
            if ((mask & finished[i]).any()) add(child(pd.n, c2), MoveMask{}, true);
            mask = mask & ~finished[i];
            if (!mask.any()) continue;
            MoveMask untouched = mask & ~touches[i];
            for (unsigned c = 0; c < alphabet_[i]; ++c) {
              MoveMask go = mask & pair_moves[i][c * arity_ + c2];
              if (c == c2) go = go | untouched;
              add(child(pd.n, c), go, false);
            }
          }
        std::vector<Pending> list;
        for (auto& [n, pd] : below) list.push_back(pd);
        next.push_back(std::move(list));
        next_within.push_back(w2);
      }
    }
    level = std::move(next);
    level_within = std::move(next_within);
  }
  std::map<PrefixWork, std::size_t> task_of;
  std::vector<const PrefixWork*> tasks;
  std::vector<std::size_t> prefix_task(level.size());
  for (std::size_t p = 0; p < level.size(); ++p) {
    PrefixWork work{level_within[p], std::move(level[p])};
    auto [it, fresh] = task_of.try_emplace(std::move(work), tasks.size());
    if (fresh) tasks.push_back(&it->first);
    prefix_task[p] = it->second;
  }
  std::vector<NodeId> results(tasks.size(), kEmptyNode);
  std::array<std::unique_ptr<Image>, kMaxThreads> images;  // one a thread, kept across its tasks
  run_tasks(tasks.size(), [&](std::size_t t) {
    auto& image = images[this_worker_];
    if (!image) image = std::make_unique<Image>(*this, touches, finished, pair_moves);
    const PrefixWork& work = *tasks[t];
    NodeId acc = kEmptyNode;
    if (work.within != kEmptyNode)
      for (const Pending& pd : work.pending) {
        if (pd.ident)
          acc = apply(
              kUnion, acc,
              work.within == kNoRestriction ? pd.n : apply(kIntersect, pd.n, work.within, depth),
              depth);
        if (pd.mask.any())
          acc = apply(kUnion, acc,
                      image->rec(pd.n, image->masks.intern(pd.mask), work.within, depth), depth);
      }
    results[t] = acc;
  });
  for (auto& image : images) image.reset();
  std::vector<NodeId> parts(level.size());
  for (std::size_t p = 0; p < parts.size(); ++p) parts[p] = results[prefix_task[p]];
  return assemble(parts, depth);
}

Manager::ChangeId Manager::intern(const Change& c) {
  Change sorted = c;
  std::sort(sorted.relabels.begin(), sorted.relabels.end(),
            [](const Relabel& x, const Relabel& y) { return x.position < y.position; });
  for (std::size_t i = 0; i < sorted.relabels.size(); ++i) {
    const Relabel& r = sorted.relabels[i];
    if (r.position >= length())
      throw std::invalid_argument("dfa: change touches position " + std::to_string(r.position) +
                                  " beyond the string");
    if (i > 0 && sorted.relabels[i - 1].position == r.position)
      throw std::invalid_argument("dfa: change lists position " + std::to_string(r.position) +
                                  " twice");
    for (auto [b, a] : r.pairs)
      if (b >= alphabet_[r.position] || a >= alphabet_[r.position])
        throw std::invalid_argument("dfa: change uses a character outside position " +
                                    std::to_string(r.position) + "'s alphabet");
  }
  changes_.push_back(std::move(sorted));
  return static_cast<ChangeId>(changes_.size() - 1);
}

NodeId Manager::run(const std::function<NodeId()>& op) {
  if (allocated_ - free_.size() > gc_threshold_) collect_garbage();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      return op();
    } catch (const TableFull&) {
      collect_garbage();
    }
  }
  throw DfaMemoryError("dfa: the node table would exceed the memory budget of " +
                       format_bytes(static_cast<double>(budget_)) + " (" +
                       std::to_string(live_nodes()) + " live states after garbage collection)");
}

void Manager::collect_garbage() {
  ++gc_runs_;
  std::vector<std::uint8_t> mark(allocated_, 0);
  std::vector<NodeId> stack;
  for (std::size_t n = 2; n < allocated_; ++n)
    if (layer_[n] != kDeadLayer && refs_[n] > 0 && !mark[n]) {
      mark[n] = 1;
      stack.push_back(static_cast<NodeId>(n));
    }
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (unsigned c = 0; c < arity_; ++c) {
      NodeId k = child(n, c);
      if (k > kAcceptNode && !mark[k]) {
        mark[k] = 1;
        stack.push_back(k);
      }
    }
  }
  free_.clear();
  for (std::size_t n = 2; n < allocated_; ++n) {
    if (!mark[n]) {
      layer_[n] = kDeadLayer;
      free_.push_back(static_cast<NodeId>(n));
    }
  }
  std::reverse(free_.begin(), free_.end());  // reuse low slots first
  rebuild_unique();
  std::fill(cache_.begin(), cache_.end(), CacheEntry{0, 0, 0, 0});
  // Collect again when the live states double, or earlier when they would fill half of the room
  // the budget leaves: an operation that overflows the table is thrown away and run again, which
  // costs far more than collecting before it starts.
  const std::size_t live = live_nodes(), room = max_capacity_ / 4 * 3;
  std::size_t next = 2 * live;
  if (room > live) next = std::min(next, live + (room - live) / 2);
  gc_threshold_ = std::max<std::size_t>(1u << 20, next);
}

void Manager::clear_operation_cache() {
  std::fill(cache_.begin(), cache_.end(), CacheEntry{0, 0, 0, 0});
}

Set Manager::empty() { return Set(this, kEmptyNode); }

Set Manager::cube(const std::vector<std::uint32_t>& allowed) {
  if (allowed.size() != length())
    throw std::invalid_argument("dfa: cube needs one mask per position");
  return Set(this, run([&] {
               NodeId below = kAcceptNode;
               for (unsigned layer = length(); layer-- > 0;) {
                 Kids kids{};
                 for (unsigned c = 0; c < alphabet_[layer]; ++c)
                   if (allowed[layer] >> c & 1u) kids[c] = below;
                 below = find_or_add(layer, kids.data());
               }
               return below;
             }));
}

namespace {
std::uint32_t all_chars(unsigned alphabet) { return alphabet >= 32 ? ~0u : (1u << alphabet) - 1; }
}  // namespace

Set Manager::universe() {
  std::vector<std::uint32_t> all(length());
  for (unsigned i = 0; i < length(); ++i) all[i] = all_chars(alphabet_[i]);
  return cube(all);
}

Set Manager::with_char(unsigned position, std::uint8_t c) {
  std::vector<std::uint32_t> all(length());
  for (unsigned i = 0; i < length(); ++i) all[i] = all_chars(alphabet_[i]);
  all.at(position) = 1u << c;
  return cube(all);
}

Set Manager::singleton(const std::vector<std::uint8_t>& s) {
  if (s.size() != length()) throw std::invalid_argument("dfa: string has the wrong length");
  std::vector<std::uint32_t> one(length());
  for (unsigned i = 0; i < length(); ++i) {
    if (s[i] >= alphabet_[i])
      throw std::invalid_argument("dfa: character out of the alphabet at position " +
                                  std::to_string(i));
    one[i] = 1u << s[i];
  }
  return cube(one);
}

Set Set::operator|(const Set& o) const {
  return Set(m_, m_->run([&] { return m_->apply_top(Manager::kUnion, root_, o.root_); }));
}
Set Set::operator&(const Set& o) const {
  return Set(m_, m_->run([&] { return m_->apply_top(Manager::kIntersect, root_, o.root_); }));
}
Set Set::operator-(const Set& o) const {
  return Set(m_, m_->run([&] { return m_->apply_top(Manager::kMinus, root_, o.root_); }));
}
Set Set::change(Manager::ChangeId id) const {
  return Set(m_, m_->run([&] { return m_->change_rec(id, 0, root_); }));
}

Set Set::change_all(const std::vector<Manager::ChangeId>& ids) const {
  return Set(m_, m_->run([&] { return m_->change_all(root_, ids, kNoRestriction); }));
}

Set Set::change_all_within(const std::vector<Manager::ChangeId>& ids, const Set& within) const {
  return Set(m_, m_->run([&] { return m_->change_all(root_, ids, within.root()); }));
}

Set Set::restrict_to(const Set& care) const {
  if (care.is_empty()) return m_->empty();
  Set everything = m_->universe();  // its states, one per layer, stay alive while this runs
  std::vector<NodeId> full(m_->length() + 1, kAcceptNode);
  NodeId n = everything.root();
  for (unsigned i = 0; i < m_->length(); ++i, n = m_->child(n, 0)) full[i] = n;
  return Set(m_, m_->run([&] { return m_->restrict_rec(root_, care.root(), 0, full); }));
}

bool Set::contains(const std::vector<std::uint8_t>& s) const {
  if (s.size() != m_->length()) return false;
  NodeId n = root_;
  for (unsigned i = 0; i < s.size() && n != kEmptyNode; ++i) {
    if (s[i] >= m_->alphabet(i)) return false;
    n = m_->child(n, s[i]);
  }
  return n == kAcceptNode;
}

namespace {
// Visits every state of a set once (a bit per table slot, not a hash set: statistics of big sets
// must not cost more memory than the sets).
template <class F>
void for_each_state(const Manager& m, NodeId root, std::size_t table_slots, F&& f) {
  if (root == kEmptyNode) return;
  std::vector<bool> seen(table_slots, false);
  std::vector<NodeId> stack{root};
  seen[root] = true;
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    f(n);
    if (n == kAcceptNode) continue;
    for (unsigned c = 0; c < m.alphabet(m.layer_of(n)); ++c) {
      NodeId k = m.child(n, c);
      if (k != kEmptyNode && !seen[k]) {
        seen[k] = true;
        stack.push_back(k);
      }
    }
  }
}
}  // namespace

Set::Measure Set::measure() const {
  Measure out;
  if (root_ == kEmptyNode) return out;
  // The set's states layer by layer (a breadth-first walk; a bit per table slot marks the ones
  // seen), then the counts bottom-up, stored by the rank of the state's id among the set's states:
  // a popcount over the seen bits, so no sort and no hash map (big sets must not cost more memory
  // than they take in the table).
  const unsigned L = m_->length();
  const std::size_t words = (m_->table_slots() + 63) / 64;
  std::vector<std::uint64_t> seen(words, 0);
  auto visit = [&](NodeId n) {
    std::uint64_t bit = std::uint64_t{1} << (n % 64);
    if (seen[n / 64] & bit) return false;
    seen[n / 64] |= bit;
    return true;
  };
  const unsigned top = root_ == kAcceptNode ? L : m_->layer_of(root_);
  std::vector<std::vector<NodeId>> layers(L + 1);
  visit(root_);
  layers[top].push_back(root_);
  for (unsigned i = top; i < L; ++i) {
    out.bytes += static_cast<std::uint64_t>(layers[i].size()) * m_->alphabet(i) * sizeof(NodeId);
    for (NodeId n : layers[i])
      for (unsigned c = 0; c < m_->alphabet(i); ++c) {
        NodeId k = m_->child(n, c);
        if (k != kEmptyNode && visit(k)) layers[i + 1].push_back(k);
      }
  }
  std::vector<std::uint32_t> rank_before(words);  // states with a smaller id than the word's first
  std::uint32_t total = 0;
  for (std::size_t w = 0; w < words; ++w) {
    rank_before[w] = total;
    total += static_cast<std::uint32_t>(__builtin_popcountll(seen[w]));
  }
  out.states = total;
  auto rank = [&](NodeId n) {
    return rank_before[n / 64] + static_cast<std::uint32_t>(__builtin_popcountll(
                                     seen[n / 64] & ((std::uint64_t{1} << (n % 64)) - 1)));
  };
  std::vector<std::uint64_t> counts(total, 0);
  for (unsigned i = L + 1; i-- > top;) {
    for (NodeId n : layers[i]) {
      if (n == kAcceptNode) {
        counts[rank(n)] = 1;
        continue;
      }
      std::uint64_t sum = 0;
      for (unsigned c = 0; c < m_->alphabet(i); ++c) {
        NodeId k = m_->child(n, c);
        if (k != kEmptyNode && __builtin_add_overflow(sum, counts[rank(k)], &sum))
          throw std::overflow_error("dfa: set has more than 2^64 strings");
      }
      counts[rank(n)] = sum;
    }
    std::vector<NodeId>().swap(layers[i]);
  }
  out.positions = counts[rank(root_)];
  return out;
}

std::uint64_t Set::count() const { return measure().positions; }

std::size_t Set::states() const {
  std::size_t total = 0;
  for_each_state(*m_, root_, m_->table_slots(), [&](NodeId) { ++total; });
  return total;
}

std::uint64_t Set::bytes() const {
  std::uint64_t total = 0;
  for_each_state(*m_, root_, m_->table_slots(), [&](NodeId n) {
    if (n != kAcceptNode) total += m_->alphabet(m_->layer_of(n)) * sizeof(NodeId);
  });
  return total;
}

void Set::enumerate(const std::function<bool(const std::vector<std::uint8_t>&)>& f) const {
  std::vector<std::uint8_t> s(m_->length());
  std::function<bool(NodeId, unsigned)> rec = [&](NodeId n, unsigned i) -> bool {
    if (n == kEmptyNode) return true;
    if (n == kAcceptNode) return f(s);
    for (unsigned c = 0; c < m_->alphabet(i); ++c) {
      s[i] = static_cast<std::uint8_t>(c);
      if (!rec(m_->child(n, c), i + 1)) return false;
    }
    return true;
  };
  rec(root_, 0);
}

Set unite_all(std::vector<Set> sets, Manager& m) {
  if (sets.empty()) return m.empty();
  while (sets.size() > 1) {
    std::vector<Set> next;
    next.reserve((sets.size() + 1) / 2);
    for (std::size_t i = 0; i + 1 < sets.size(); i += 2) next.push_back(sets[i] | sets[i + 1]);
    if (sets.size() % 2) next.push_back(std::move(sets.back()));
    sets = std::move(next);
  }
  return std::move(sets.front());
}

}  // namespace zermelo::dfa
