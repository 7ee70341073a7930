// Byte planes or not: the same records written and read back as compressed runs both ways, side
// by side in one process, with the CPU time of each (these machines are shared: CPU time is what
// a setting costs, wall time is what the neighbours left over).
// Usage: run_planes RUN RECORDS SCRATCH
//   RUN: any run file (e.g. a working states run of a solve); its first RECORDS records are used.
//   SCRATCH: a path for the temporary run (removed at the end).
// Prints one JSON line per setting: zstd level, planes, bytes per record, M records per CPU second,
// and the wall time of reading the run into a busy consumer in step and with the decode-ahead
// worker.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <vector>

#include "zermelo/io/run_file.hpp"

using namespace zermelo;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s RUN RECORDS SCRATCH\n", argv[0]);
    return 2;
  }
  RunReader in(argv[1]);
  const std::uint32_t rs = in.record_size();
  const std::size_t want = std::strtoull(argv[2], nullptr, 10);
  std::vector<char> data(want * rs);
  std::size_t n = 0;
  const void* p;
  while (n < want) {
    const std::size_t k = in.next_span(&p, want - n);
    if (k == 0) break;
    std::memcpy(data.data() + n * rs, p, k * rs);
    n += k;
  }
  const bool delta = in.info().options.delta_u64_keys;
  std::uint64_t sink = 0;
  auto cpu = [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
  for (int rep = 0; rep < 2; ++rep)
    for (int level : {1, -1})
      for (bool planes : {false, true}) {
        RunOptions o;
        o.record_size = rs;
        o.zstd_level = level;
        o.delta_u64_keys = delta;
        o.shuffle_bytes = planes;
        const double c0 = cpu();
        RunWriter w(argv[3], o);
        w.append_many(data.data(), n);
        const RunInfo info = w.finish();
        const double c1 = cpu();
        RunReader r(argv[3]);
        std::size_t m = 0;
        while (const std::size_t k = r.next_span(&p, 1 << 16)) m += k;
        const double c2 = cpu();
        // Wall time of a reader feeding a consumer that works on every record (a stand-in for a
        // merge), in step and decoding ahead on a worker thread.
        double wall[2];
        for (bool ahead : {false, true}) {
          const auto t0 = std::chrono::steady_clock::now();
          RunReader rr(argv[3], IoOptions{}, ahead);
          std::uint64_t h = 0;
          while (const std::size_t k = rr.next_span(&p, 1 << 16))
            for (std::size_t i = 0; i < k; ++i) {
              std::uint64_t x;
              std::memcpy(&x, static_cast<const char*>(p) + i * rs, sizeof x);
              h = (h ^ x) * 0x9E3779B97F4A7C15ull;
              h ^= h >> 29;
            }
          sink ^= h;
          wall[ahead] =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        std::printf(
            "{\"round\": %d, \"zstd\": %d, \"planes\": %s, \"records\": %zu, \"bytes_per_record\": "
            "%.3f, "
            "\"write_mrec_per_cpu_s\": %.1f, \"read_mrec_per_cpu_s\": %.1f, \"consumer_wall_s\": "
            "%.2f, "
            "\"consumer_wall_s_decode_ahead\": %.2f}\n",
            rep, level, planes ? "true" : "false", n,
            static_cast<double>(info.file_bytes) / static_cast<double>(n),
            static_cast<double>(n) / (c1 - c0) / 1e6, static_cast<double>(m) / (c2 - c1) / 1e6,
            wall[0], wall[1]);
      }
  std::filesystem::remove(argv[3]);
  return sink == 42 ? 1 : 0;  // keeps the consumers' work
}
