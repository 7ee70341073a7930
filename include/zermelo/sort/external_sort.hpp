// External sorting under a hard memory budget: the building block of every pass.
//
// Records are pushed into a buffer sized from the budget; a full buffer is sorted (two halves on
// two threads, each its own run, so no extra memory is needed for a parallel merge) and spilled as
// a checksummed run file in the job's scratch directory. At the end the runs are merged k ways
// (several merge rounds if one round's read buffers would not fit) into a stream or a run file.
// A sort that never spills stays in RAM: the in-RAM and out-of-core paths give the same order.
//
// Determinism: `Less` must be a strict weak order under which equivalent records are byte-identical
// (compare every field), so the output does not depend on the budget or on where runs were cut.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "zermelo/io/run_file.hpp"
#include "zermelo/sort/radix_sort.hpp"
#include "zermelo/util/mapped_allocator.hpp"

namespace zermelo {

struct SortOptions {
  std::string scratch_dir;  // spilled runs go here (created; removed when done)
  std::uint64_t memory_bytes = 1ull << 30;
  unsigned threads = 2;
  RunOptions run;  // record_size is set from T
  // Spilled runs are stored uncompressed until this many bytes have been spilled (raw I/O is
  // several times faster than zstd on these machines), compressed with run.zstd_level after.
  std::uint64_t raw_spill_bytes = 0;
  // Equal records are kept once. For searches whose records repeat many times (a breadth-first
  // level reaches a state from many parents): a full buffer is sorted and deduplicated first,
  // and spilled only if that freed less than a quarter of it; the merge drops repeats across runs.
  bool unique = false;
};

template <class T, class Less = std::less<T>>
class ExternalSorter {
  static_assert(std::is_trivially_copyable_v<T>, "records must be plain data");

 public:
  explicit ExternalSorter(SortOptions opt, Less less = Less()) : opt_(std::move(opt)), less_(less) {
    opt_.run.record_size = sizeof(T);
    opt_.run.block_bytes = std::min<std::uint32_t>(opt_.run.block_bytes, 1u << 20);
    std::size_t writer = RunWriter::memory_bytes(opt_.run);
    // Writer buffers, plus 5% and 8 MiB for what a budget must also cover but a sorter cannot see:
    // the process's own footprint, thread stacks, allocator slack (measured: bench/RESULTS.md).
    std::size_t fixed = writer + static_cast<std::size_t>(opt_.memory_bytes / 20) + (8u << 20);
    if (opt_.memory_bytes < fixed + 64 * sizeof(T))
      throw std::invalid_argument("memory budget too small for a sort (" +
                                  std::to_string(opt_.memory_bytes) + " bytes)");
    capacity_ = (opt_.memory_bytes - fixed) / sizeof(T);
    // A radix sort needs a second buffer as large as the first: half the records a run, sorted
    // several times faster (radix_sort.hpp).
    if constexpr (kRadix) {
      capacity_ /= 2;
      scratch_ = Scratch(MappedAllocator<T>().allocate(capacity_), RawDelete{capacity_});
    }
    // Reserved whole up front: untouched pages cost no RSS, and growing by doubling would briefly
    // hold 1.5 times the buffer, breaking the budget.
    buffer_.reserve(capacity_);
  }
  // A merge of existing sorted runs, which are left in place: streams them in order under the
  // budget, with intermediate merge rounds (in scratch_dir) if they are too many for one.
  ExternalSorter(SortOptions opt, std::vector<std::string> sorted_runs, Less less = Less())
      : opt_(std::move(opt)),
        less_(less),
        runs_(std::move(sorted_runs)),
        borrowed_(runs_.begin(), runs_.end()) {
    opt_.run.record_size = sizeof(T);
    opt_.run.block_bytes = std::min<std::uint32_t>(opt_.run.block_bytes, 1u << 20);
    for (auto& r : runs_) count_ += inspect_run(r).record_count;
    if (!runs_.empty() && runs_.size() > fan_in())
      std::filesystem::create_directories(opt_.scratch_dir);
    reduce_runs();
    open_merge();
  }
  ~ExternalSorter() { cleanup(); }

  void push(const T& r) {
    if (buffer_.size() == capacity_) {
      if (!opt_.unique)
        spill();
      else if (dedupe_buffer(), buffer_.size() > capacity_ - capacity_ / 4)
        spill_sorted();
    }
    buffer_.push_back(r);
    ++count_;
  }
  std::uint64_t size() const {
    return count_;
  }  // records pushed (with `unique`, next may yield fewer)
  std::size_t spilled_runs() const { return spilled_runs_; }  // runs written before merging

  // Ends the input; afterwards `next` yields the records in order.
  void sort() {
    if (runs_.empty()) {  // all in RAM
      if (opt_.unique)
        dedupe_buffer();
      else
        sort_range(buffer_.begin(), buffer_.end());
      in_ram_ = true;
      return;
    }
    if (!buffer_.empty()) {
      if (opt_.unique)
        dedupe_buffer(), spill_sorted();
      else
        spill();
    }
    Buffer().swap(buffer_);
    scratch_.reset();
    reduce_runs();
    open_merge();
  }

  bool next(T& out) {
    if (!opt_.unique) return next_record(out);
    while (next_record(out)) {  // runs were deduplicated one by one: drop repeats across them
      if (has_last_ && !less_(last_, out)) continue;
      last_ = out;
      has_last_ = true;
      return true;
    }
    return false;
  }

  // Convenience: sort everything into one run file.
  RunInfo write_to(const std::string& path, RunOptions run) {
    run.record_size = sizeof(T);
    RunWriter w(path, run);
    T r;
    while (next(r)) w.push(r);
    return w.finish();
  }

 private:
  bool next_record(T& out) {
    if (in_ram_) {
      if (ram_pos_ >= buffer_.size()) return false;
      out = buffer_[ram_pos_++];
      return true;
    }
    if (heap_.empty()) return false;
    // The smallest head is at the root; refill it from its run and sift it down once (half the
    // work of a pop followed by a push), or drop it when its run is exhausted.
    Head& top = heap_.front();
    out = top.rec;
    if (readers_[top.src]->next(top.rec)) {
      sift_down();
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), HeadOrder{less_});
      heap_.pop_back();
    }
    return true;
  }

  struct Head {
    T rec;
    std::size_t src;
  };
  struct HeadOrder {  // priority_queue is a max-heap: invert, tie-break by source for stability
    Less less;
    bool operator()(const Head& a, const Head& b) const {
      if (less(b.rec, a.rec)) return true;
      if (less(a.rec, b.rec)) return false;
      return a.src > b.src;
    }
  };

  // Radix sorting applies when the record's layout is known and the order is its operator< or a
  // comparator of exactly the layout's fields (radix_sort.hpp).
  static constexpr bool kRadix =
      RadixSortable<T> && (std::is_same_v<Less, std::less<T>> || OrdersByRadixLayout<Less>);

 public:
  static constexpr bool uses_radix_sort() { return kRadix; }

 private:
  // Both buffers come from mmap (mapped_allocator.hpp): made and dropped each level.
  using Buffer = std::vector<T, MappedAllocator<T>>;
  struct RawDelete {
    std::size_t n = 0;
    void operator()(T* p) const { MappedAllocator<T>().deallocate(p, n); }
  };
  using Scratch = std::unique_ptr<T, RawDelete>;

  // Sorts the two halves of buffer_[lo, end), on two threads when there are two (the second half
  // starts at halves_mid(lo)); true if halves.
  std::size_t halves_mid(std::size_t lo) const { return lo + (buffer_.size() - lo) / 2; }
  bool sort_halves(std::size_t lo = 0) {
    const std::size_t n = buffer_.size();
    T* data = buffer_.data();
    const bool halves = opt_.threads >= 2 && n - lo > (1u << 16);
    const std::size_t mid = halves ? halves_mid(lo) : n;
    auto sort_part = [&](std::size_t from, std::size_t to) {
      if constexpr (kRadix)
        radix_sort(data + from, scratch_.get() + from, to - from);
      else
        std::sort(data + from, data + to, less_);
    };
    if (halves) {
      std::thread t([&] { sort_part(lo, mid); });
      sort_part(mid, n);
      t.join();
    } else {
      sort_part(lo, n);
    }
    return halves;
  }

  template <class It>
  void sort_range(It first, It last) {
    std::size_t n = static_cast<std::size_t>(last - first);
    if constexpr (kRadix) {  // the whole buffer: two sorted halves merged through the scratch
                             // buffer
      if (sort_halves()) {
        T* data = buffer_.data();
        std::merge(data, data + n / 2, data + n / 2, data + n, scratch_.get(), less_);
        std::memcpy(static_cast<void*>(data), scratch_.get(), n * sizeof(T));
      }
      return;
    }
    if (opt_.threads >= 2 && n > (1u << 16) &&
        2 * n <= capacity_) {  // inplace_merge may take n/2 more
      It mid = first + static_cast<std::ptrdiff_t>(n / 2);
      std::thread t([&] { std::sort(first, mid, less_); });
      std::sort(mid, last, less_);
      t.join();
      std::inplace_merge(first, mid, last, less_);
    } else {
      std::sort(first, last, less_);
    }
  }

  std::string run_path(std::size_t i) const {
    return opt_.scratch_dir + "/run-" + std::to_string(i) + ".run";
  }

  // Runs are named and their compression chosen up front, so that two halves can be written at
  // once.
  struct RunPlan {
    std::string path;
    RunOptions options;
  };
  RunPlan plan_run(std::uint64_t records) {
    RunPlan p{run_path(next_run_id_++), opt_.run};
    const std::uint64_t bytes = records * sizeof(T);
    if (spilled_bytes_ + bytes <= opt_.raw_spill_bytes) p.options.zstd_level = 0;
    spilled_bytes_ += bytes;
    runs_.push_back(p.path);
    return p;
  }
  static void write_run(const RunPlan& plan, const T* first, std::size_t n) {
    RunWriter w(plan.path, plan.options);
    w.append_many(first, n);
    w.finish();
  }

  void spill() {
    const bool halves = sort_halves();  // two runs: merging them here would need a second buffer
    write_buffer(halves ? buffer_.size() / 2 : buffer_.size());
  }

  // Writes the buffer as runs [0, mid) and [mid, n) (one run if mid == n) and empties it.
  void write_buffer(std::size_t mid) {
    std::filesystem::create_directories(opt_.scratch_dir);
    const T* data = buffer_.data();
    const std::size_t n = buffer_.size();
    const RunPlan a = plan_run(mid);
    if (mid < n) {
      const RunPlan b = plan_run(n - mid);
      // Both halves at once: compressed runs spend their time in zstd, one core each. The future
      // carries the other half's error and is waited for even if this half throws.
      auto first_half = std::async(std::launch::async, [&] { write_run(a, data, mid); });
      write_run(b, data + mid, n - mid);
      first_half.get();
    } else {
      write_run(a, data, n);
    }
    buffer_.clear();
    deduped_ = 0;
    spilled_runs_ = runs_.size();
  }

  // Keeps one of each record in the buffer, sorted (`unique` sorts). Its first deduped_ records
  // are so already, from the last time it filled: only the records pushed since are sorted, then
  // merged in (a full re-sort of a buffer kept three-quarters full took a seventh of an Ostle
  // breadth-first ply).
  void dedupe_buffer() {
    const std::size_t p = deduped_, n = buffer_.size();
    T* data = buffer_.data();
    if constexpr (kRadix) {
      // The new records sorted into scratch_[p, n), then merged with the prefix backwards, in
      // place: the write position never passes the prefix's read position.
      if (sort_halves(p))
        std::merge(data + p, data + halves_mid(p), data + halves_mid(p), data + n,
                   scratch_.get() + p, less_);
      else
        std::memcpy(static_cast<void*>(scratch_.get() + p), data + p, (n - p) * sizeof(T));
      const T* tail = scratch_.get();
      std::size_t i = p, j = n, w = n;
      while (j > p) data[--w] = i > 0 && less_(tail[j - 1], data[i - 1]) ? data[--i] : tail[--j];
    } else {
      sort_range(buffer_.begin(),
                 buffer_.end());  // the whole buffer: a merge in place would allocate
    }
    auto same = [this](const T& a, const T& b) { return !less_(a, b) && !less_(b, a); };
    buffer_.erase(std::unique(buffer_.begin(), buffer_.end(), same), buffer_.end());
    deduped_ = buffer_.size();
  }

  // Spills a buffer that is sorted already: its two halves are sorted runs, written at once.
  void spill_sorted() {
    write_buffer(opt_.threads >= 2 && buffer_.size() > (1u << 16) ? buffer_.size() / 2
                                                                  : buffer_.size());
  }

  IoOptions merge_io() const { return IoOptions{256u << 10, 2, true}; }
  std::size_t fan_in() const {
    std::size_t per = RunReader::memory_bytes(opt_.run.block_bytes, merge_io()) + sizeof(Head);
    std::size_t avail = opt_.memory_bytes - RunWriter::memory_bytes(opt_.run) - (2u << 20);
    return std::max<std::size_t>(2, avail / per);
  }

  // Merges groups of runs until one round can merge all that is left.
  void reduce_runs() {
    const std::size_t k = fan_in();
    while (runs_.size() > k) {
      std::vector<std::string> next;
      for (std::size_t i = 0; i < runs_.size(); i += k) {
        std::vector<std::string> group(
            runs_.begin() + static_cast<std::ptrdiff_t>(i),
            runs_.begin() + static_cast<std::ptrdiff_t>(std::min(runs_.size(), i + k)));
        ExternalSorter<T, Less> merger(*this, group);
        std::string out = run_path(next_run_id_++);
        RunWriter w(out, opt_.run);
        T r;
        while (merger.next(r)) w.push(r);
        w.finish();
        merger.readers_.clear();
        for (auto& g : group)
          if (!borrowed_.count(g)) std::filesystem::remove(g);
        next.push_back(out);
      }
      runs_ = std::move(next);
    }
  }

  // A merger over existing runs (used by reduce_runs).
  ExternalSorter(const ExternalSorter& parent, const std::vector<std::string>& runs)
      : opt_(parent.opt_), less_(parent.less_), runs_(runs), owns_scratch_(false) {
    open_merge();
  }

  void open_merge() {
    heap_.clear();
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      readers_.push_back(std::make_unique<RunReader>(runs_[i], merge_io()));
      Head h{T{}, i};
      if (readers_.back()->next(h.rec)) heap_.push_back(h);
    }
    std::make_heap(heap_.begin(), heap_.end(), HeadOrder{less_});
  }

  void sift_down() {
    HeadOrder after{less_};  // after(a, b): a comes after b
    std::size_t i = 0, n = heap_.size();
    Head moving = heap_[0];
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && after(heap_[c], heap_[c + 1])) ++c;
      if (!after(moving, heap_[c])) break;
      heap_[i] = heap_[c];
      i = c;
    }
    heap_[i] = moving;
  }

  void cleanup() {
    readers_.clear();
    if (owns_scratch_ && !runs_.empty()) {
      std::error_code ec;
      for (auto& r : runs_)
        if (!borrowed_.count(r)) std::filesystem::remove(r, ec);
      std::filesystem::remove(opt_.scratch_dir, ec);  // only if empty
    }
  }

  SortOptions opt_;
  Less less_;
  std::size_t capacity_ = 0;
  Buffer buffer_;
  std::size_t deduped_ = 0;  // `unique`: buffer_[0, deduped_) is sorted without repeats
  Scratch scratch_;          // radix sorts only; raw memory, touched only when used
  std::uint64_t count_ = 0;
  std::vector<std::string> runs_;
  std::set<std::string> borrowed_;  // runs given by the caller: merged, never removed
  std::size_t next_run_id_ = 0;
  std::size_t spilled_runs_ = 0;
  std::uint64_t spilled_bytes_ = 0;
  bool in_ram_ = false;
  std::size_t ram_pos_ = 0;
  T last_{};  // `unique`: the record next returned last
  bool has_last_ = false;
  bool owns_scratch_ = true;
  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<Head> heap_;  // a binary heap under HeadOrder: the smallest record at the front
};

// Streams two sorted sequences side by side: for each key present in either, calls
// on_match(a*, b*) with nullptr for the side that lacks it. Keys must be unique on each side.
// `next_a`/`next_b` are callables `bool(A&)`; `key_a`/`key_b` extract comparable keys.
template <class A, class B, class NextA, class NextB, class KeyA, class KeyB, class OnMatch>
void merge_join(NextA next_a, NextB next_b, KeyA key_a, KeyB key_b, OnMatch on_match) {
  A a{};
  B b{};
  bool has_a = next_a(a), has_b = next_b(b);
  while (has_a || has_b) {
    if (has_a && (!has_b || key_a(a) < key_b(b))) {
      on_match(&a, static_cast<const B*>(nullptr));
      has_a = next_a(a);
    } else if (has_b && (!has_a || key_b(b) < key_a(a))) {
      on_match(static_cast<const A*>(nullptr), &b);
      has_b = next_b(b);
    } else {
      on_match(&a, &b);
      has_a = next_a(a);
      has_b = next_b(b);
    }
  }
}

}  // namespace zermelo
