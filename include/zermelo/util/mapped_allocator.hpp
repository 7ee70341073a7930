// An allocator for big buffers that are made and dropped often, taken straight from the kernel.
//
// An external sorter reserves its whole budget when it is made (a retrograde level makes one a
// shard) although a small level touches a few pages of it. glibc maps such blocks with mmap
// anyway, so this changes nothing in a normal build. AddressSanitizer's allocator instead writes
// the shadow of the whole block when it is allocated and again when it is freed, an eighth of its
// size each time: the suite's small solves spent most of their time in those page faults. Blocks
// from mmap keep every access checked by the sanitizer, but not overruns past the block's end.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace zermelo {

template <class T>
struct MappedAllocator {
  using value_type = T;
  static constexpr std::size_t kMapFrom = std::size_t{1} << 20;  // smaller blocks: malloc

  MappedAllocator() = default;
  template <class U>
  MappedAllocator(const MappedAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    void* p = bytes < kMapFrom ? std::malloc(bytes ? bytes : 1)
                               : ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == nullptr || p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kMapFrom)
      std::free(p);
    else
      ::munmap(p, bytes);
  }

  template <class U>
  bool operator==(const MappedAllocator<U>&) const {
    return true;
  }
};

}  // namespace zermelo
