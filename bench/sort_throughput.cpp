// External sort of N random 8-byte keys under a memory budget, beside std::sort of the same data
// in RAM where it fits. Usage: sort_throughput DIR N MEMORY_MIB [--no-ram | --stxxl]
// --stxxl sorts with STXXL's sorter (disk in DIR) instead of ours, for the side-by-side ratio.
// Peak RSS: run under /usr/bin/time -v (the in-RAM comparison is skipped with --no-ram so the
// external sort's own peak is what gets measured).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "zermelo/sort/external_sort.hpp"
#include "zermelo/sort/stxxl_sorter.hpp"

using namespace zermelo;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s DIR N MEMORY_MIB [--no-ram]\n", argv[0]);
    return 2;
  }
  const std::uint64_t n = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t mem = std::strtoull(argv[3], nullptr, 10) << 20;
  const bool with_ram = !(argc > 4 && std::strcmp(argv[4], "--no-ram") == 0);
  const bool use_stxxl = argc > 4 && std::strcmp(argv[4], "--stxxl") == 0;
  SortOptions o;
  o.scratch_dir = std::string(argv[1]) + "/sort-bench.scratch";
  o.memory_bytes = mem;
  o.threads = 2;
  std::mt19937_64 rng(5);
  auto key = [](std::uint64_t r) { return (r >> 1) + 1; };  // never STXXL's sentinels 0 and max
  auto t0 = Clock::now();
  std::uint64_t prev = 0, k, got = 0;
  bool ok = true;
  std::size_t runs = 0;
  if (use_stxxl) {
    StxxlSorter<std::uint64_t, std::less<std::uint64_t>, 0, UINT64_MAX> s(argv[1], mem, n * 8);
    for (std::uint64_t i = 0; i < n; ++i) s.push(key(rng()));
    s.sort();
    while (s.next(k)) ok &= k >= prev, prev = k, ++got;
  } else {
    ExternalSorter<std::uint64_t> s(o);
    for (std::uint64_t i = 0; i < n; ++i) s.push(key(rng()));
    s.sort();
    runs = s.spilled_runs();
    while (s.next(k)) ok &= k >= prev, prev = k, ++got;
  }
  double te = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf(
      "{\"sorter\": \"%s\", \"n\": %llu, \"memory_mib\": %llu, \"runs\": %zu, \"external_s\": "
      "%.2f, "
      "\"external_rec_per_s\": %.3g, \"sorted\": %s",
      use_stxxl ? "stxxl" : "zermelo", static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(mem >> 20), runs, te, static_cast<double>(n) / te,
      ok && got == n ? "true" : "false");
  if (with_ram && !use_stxxl) {
    std::mt19937_64 rng2(5);
    auto t1 = Clock::now();
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = key(rng2());
    std::sort(v.begin(), v.end());
    double tr = std::chrono::duration<double>(Clock::now() - t1).count();
    std::printf(", \"std_sort_s\": %.2f, \"ratio_external_over_std_sort\": %.2f", tr, te / tr);
  }
  std::printf("}\n");
}
