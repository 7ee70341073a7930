// An allocator for big tables of random look-ups that asks the kernel for transparent huge pages.
//
// The DFA set operations (node table, unique table, operation cache, image memo) and the
// retrograde engine's exit values and filter of undecided groups look up tables of hundreds of
// megabytes to gigabytes at random. With 4 KiB pages nearly every look-up also misses the TLB and
// walks the page tables; with 2 MiB pages most do not. This machine's kernel gives huge pages only
// to memory marked with madvise(MADV_HUGEPAGE), so big blocks are allocated 2 MiB-aligned and
// marked.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

namespace zermelo {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) {
      void* p = std::malloc(bytes ? bytes : 1);
      if (!p) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
    std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without it the table still works, only slower
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) { std::free(p); }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

// The bytes a table of `bytes` really takes: big ones are rounded up to whole huge pages.
constexpr std::uint64_t huge_page_bytes(std::uint64_t bytes) {
  constexpr std::uint64_t kHuge = std::uint64_t{2} << 20;
  return bytes < kHuge ? bytes : (bytes + kHuge - 1) / kHuge * kHuge;
}

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace zermelo
