// Run-file write and read throughput, to compare against raw `dd oflag=direct` on the same disk.
// Usage: io_throughput DIR GIB    (writes DIR/io-bench.run, GIB gibibytes of records, per setting)
// Prints one JSON line per setting: level, data kind, seconds and GB/s for write and read.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "zermelo/io/run_file.hpp"

using namespace zermelo;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DIR GIB\n", argv[0]);
    return 2;
  }
  std::string path = std::string(argv[1]) + "/io-bench.run";
  const std::uint64_t bytes = static_cast<std::uint64_t>(std::atof(argv[2]) * (1ull << 30));
  const std::uint64_t n = bytes / 8;
  std::vector<std::uint64_t> chunk(1 << 20);
  struct Setting {
    int level;
    bool sorted;
  };
  for (Setting s : {Setting{0, false}, Setting{1, false}, Setting{1, true}, Setting{3, true}}) {
    RunOptions o;
    o.record_size = 8;
    o.zstd_level = s.level;
    o.delta_u64_keys = s.sorted;
    std::mt19937_64 rng(1);
    std::uint64_t key = 0;
    // Only the writer's calls are timed, not the making of the data.
    double tw = 0;
    auto timed = [&](auto&& f) {
      auto t = Clock::now();
      f();
      tw += std::chrono::duration<double>(Clock::now() - t).count();
    };
    std::unique_ptr<RunWriter> w;
    timed([&] { w = std::make_unique<RunWriter>(path, o); });
    for (std::uint64_t done = 0; done < n; done += chunk.size()) {
      for (auto& x : chunk) x = s.sorted ? (key += 1 + (rng() & 0xFF)) : rng();
      timed([&] { w->append_many(chunk.data(), std::min<std::uint64_t>(chunk.size(), n - done)); });
    }
    RunInfo info;
    timed([&] { info = w->finish(); });
    const double tg = 0;
    std::system("sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null");
    auto t1 = Clock::now();
    RunReader r(path);
    const void* p;
    std::uint64_t got = 0, sum = 0;
    while (std::size_t k = r.next_span(&p, SIZE_MAX))
      got += k, sum += static_cast<const std::uint64_t*>(p)[0];
    double tr = std::chrono::duration<double>(Clock::now() - t1).count();
    std::printf(
        "{\"zstd_level\": %d, \"data\": \"%s\", \"raw_gb\": %.3f, \"file_gb\": %.3f, \"write_s\": "
        "%.2f, "
        "\"write_raw_gbps\": %.3f, \"write_disk_gbps\": %.3f, \"read_s\": %.2f, \"read_raw_gbps\": "
        "%.3f, "
        "\"read_disk_gbps\": %.3f, \"records\": %llu, \"checksum_ok\": %s}\n",
        s.level, s.sorted ? "sorted keys, delta" : "random u64", static_cast<double>(bytes) / 1e9,
        static_cast<double>(info.file_bytes) / 1e9, tw - tg,
        static_cast<double>(bytes) / 1e9 / (tw - tg),
        static_cast<double>(info.file_bytes) / 1e9 / (tw - tg), tr,
        static_cast<double>(bytes) / 1e9 / tr, static_cast<double>(info.file_bytes) / 1e9 / tr,
        static_cast<unsigned long long>(got), got == n && sum != 1 ? "true" : "false");
    std::fflush(stdout);
    std::filesystem::remove(path);
  }
}
