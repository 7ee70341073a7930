// The endgame solver's transposition table: bounds of the exact value, the best move, and the
// empties as a replacement priority.
//
// Why a file of its own: the table is the solver's main memory cost and, measured by perf, its
// probes were half of the time spent in the interior nodes (cache misses). Slots come two to a
// bucket and a bucket fills one 64-byte cache line, so a probe costs at most one miss, and the
// search can prefetch a position's bucket before it needs it.
//
// All searches go to the end of the game, so every stored bound is true for good. A slot is three
// atomic words; the key words are stored XORed with the data word, so a slot torn by a concurrent
// write fails the check instead of returning another position's data.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "zermelo/games/othello/bitboard.hpp"
#include "zermelo/util/prefetch.hpp"

namespace zermelo::othello {

struct TTEntry {
  int lower = -127;
  int upper = 127;
  int move = -1;
};

class TranspositionTable {
 public:
  // 2^bits slots (two a bucket).
  explicit TranspositionTable(int bits)
      : mask_((std::size_t{1} << std::max(bits - 1, 0)) - 1), buckets_(allocate(mask_ + 1)) {}

  // Asks the cache for the bucket of (p, o) ahead of a probe or a store.
  void prefetch(Bits p, Bits o) const { zermelo::prefetch(&buckets_[index(p, o)]); }

  bool probe(Bits p, Bits o, TTEntry& e) const {
    for (const Slot& s : buckets_[index(p, o)].slots) {
      const std::uint64_t data = s.data.load(std::memory_order_relaxed);
      if (holds(s, data, p, o)) {
        e.lower = static_cast<int>(data & 0xff) - 128;
        e.upper = static_cast<int>((data >> 8) & 0xff) - 128;
        e.move = static_cast<int>((data >> 16) & 0xff) - 1;
        return true;
      }
    }
    return false;
  }

  void store(Bits p, Bits o, int empties, int lower, int upper, int move) {
    Slot* target = nullptr;
    int target_empties = 1000;
    for (Slot& s : buckets_[index(p, o)].slots) {
      const std::uint64_t data = s.data.load(std::memory_order_relaxed);
      if (holds(s, data, p, o)) {
        // Same position: both results are true bounds of one exact value, so intersect them.
        lower = std::max(lower, static_cast<int>(data & 0xff) - 128);
        upper = std::min(upper, static_cast<int>((data >> 8) & 0xff) - 128);
        if (move < 0) move = static_cast<int>((data >> 16) & 0xff) - 1;
        target = &s;
        break;
      }
      // Otherwise replace the slot holding the smaller search (fewer empties); free slots hold 0.
      const int e = static_cast<int>((data >> 24) & 0xff);
      if (e < target_empties) {
        target = &s;
        target_empties = e;
      }
    }
    const std::uint64_t data =
        static_cast<std::uint64_t>(lower + 128) | static_cast<std::uint64_t>(upper + 128) << 8 |
        static_cast<std::uint64_t>(move + 1) << 16 | static_cast<std::uint64_t>(empties) << 24;
    target->data.store(data, std::memory_order_relaxed);
    target->k1.store(p ^ data, std::memory_order_relaxed);
    target->k2.store(o ^ data, std::memory_order_relaxed);
  }

 private:
  struct Slot {
    std::atomic<std::uint64_t> k1{0}, k2{0}, data{0};
  };
  struct alignas(64) Bucket {
    Slot slots[2];
  };
  static bool holds(const Slot& s, std::uint64_t data, Bits p, Bits o) {
    return (s.k1.load(std::memory_order_relaxed) ^ data) == p &&
           (s.k2.load(std::memory_order_relaxed) ^ data) == o && data != 0;
  }
  std::size_t index(Bits p, Bits o) const {
    std::uint64_t h =
        p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & mask_;
  }
  // Buckets on 2 MiB pages where the kernel offers them (transparent huge pages on request):
  // every probe lands on a random page, and with 4 KiB pages each one also missed the TLB.
  struct Free {
    void operator()(Bucket* b) const { std::free(b); }
  };
  static Bucket* allocate(std::size_t count) {
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    const std::size_t bytes = (count * sizeof(Bucket) + kHuge - 1) / kHuge * kHuge;
    void* raw = std::aligned_alloc(kHuge, bytes);
    if (!raw) throw std::bad_alloc{};
#ifdef MADV_HUGEPAGE
    madvise(raw, bytes, MADV_HUGEPAGE);  // a hint: without it the table still works
#endif
    Bucket* b = static_cast<Bucket*>(raw);
    std::uninitialized_default_construct_n(b, count);
    return b;
  }
  std::size_t mask_;
  std::unique_ptr<Bucket[], Free> buckets_;
};

}  // namespace zermelo::othello
