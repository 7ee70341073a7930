// A cache prefetch that the compiler cannot drop.
//
// Why not __builtin_prefetch alone: GCC 12 treats it as free of side effects, so a function that
// does nothing else (a table's "prefetch the slot of this key") is judged pure, and a call to it
// whose result is unused is deleted unless it was inlined first. The Othello solver's table
// prefetches were all lost that way until 2026-12-07 (bench/results/othello.md). An asm statement
// marked volatile is never deleted.
#pragma once

namespace zermelo {

inline void prefetch(const void* address) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
  __builtin_prefetch(address);
#endif
}

}  // namespace zermelo
