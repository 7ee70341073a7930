// `zermelo verify PATH...` and `zermelo info FILE`: checking and describing run files and jobs.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/verify_job.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/util/progress.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::cli {
namespace {

// Streams one run: every block's checksum and the digest. Returns the info or throws.
RunInfo verify_with_progress(const std::string& path) {
  RunReader r(path);
  Progress bar("verify " + path, r.size());
  const void* p;
  std::size_t n;
  std::uint64_t total = 0;
  while ((n = r.next_span(&p, SIZE_MAX)) > 0) {
    total += n;
    bar.add(n, n * r.record_size());
  }
  if (total != r.size()) throw RunFileError(path + ": record count mismatch");
  return r.info();
}

int run_verify(const std::vector<std::string>& paths) {
  nlohmann::json report = nlohmann::json::array();
  int bad = 0;
  for (auto& p : paths) {
    std::vector<std::pair<std::string, std::string>> problems;  // (file, what)
    std::vector<RunInfo> good;
    bool is_job = std::filesystem::is_directory(p);
    try {
      if (is_job) {
        WorkDirLock lock(p, WorkDirLock::Mode::kRead, "verify");
        VerifyReport r = verify_job(p);
        good = r.ok;
        for (auto& x : r.problems) problems.emplace_back(p, x);
      } else {
        good.push_back(verify_with_progress(p));
      }
    } catch (const std::exception& e) {
      problems.emplace_back(p, e.what());
    }
    for (auto& g : good) {
      report.push_back({{"path", g.path},
                        {"ok", true},
                        {"records", g.record_count},
                        {"blocks", g.blocks.size()},
                        {"digest", g.digest_hex()}});
      if (!globals().json)
        std::cout << "OK    " << g.path << "  " << g.record_count << " records, " << g.blocks.size()
                  << " blocks, digest " << g.digest_hex() << "\n";
    }
    for (auto& [f, what] : problems) {
      ++bad;
      report.push_back({{"path", f}, {"ok", false}, {"error", what}});
      if (!globals().json) std::cout << "FAIL  " << what << "\n";
    }
  }
  if (globals().json)
    std::cout << report.dump(2) << "\n";
  else
    std::cout << (bad ? std::to_string(bad) + " problem(s) found"
                      : "all checksums and digests match")
              << "\n";
  return bad ? 1 : 0;
}

int run_info(const std::string& path) {
  RunInfo i = inspect_run(path);
  std::uint64_t raw = 0, stored = 0;
  for (auto& b : i.blocks) raw += b.raw_bytes, stored += b.stored_bytes;
  if (globals().json) {
    std::cout << nlohmann::json{{"path", i.path},
                                {"format_version", i.format_version},
                                {"record_type", i.options.record_type},
                                {"record_size", i.options.record_size},
                                {"sort_key", i.options.sort_key},
                                {"records", i.record_count},
                                {"blocks", i.blocks.size()},
                                {"zstd_level", i.options.zstd_level},
                                {"delta_u64_keys", i.options.delta_u64_keys},
                                {"raw_bytes", raw},
                                {"stored_bytes", stored},
                                {"file_bytes", i.file_bytes},
                                {"digest", i.digest_hex()}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << "file          " << i.path << "\n"
            << "format        version " << i.format_version << ", complete\n"
            << "records       " << i.record_count << " of " << i.options.record_size << " bytes ("
            << i.options.record_type << ")\n"
            << "sort key      " << i.options.sort_key << "\n"
            << "blocks        " << i.blocks.size() << " (zstd level " << i.options.zstd_level
            << (i.options.delta_u64_keys ? ", delta-coded keys" : "") << ")\n"
            << "size          " << format_bytes(static_cast<double>(raw)) << " raw, "
            << format_bytes(static_cast<double>(stored)) << " stored";
  if (i.record_count)
    std::cout << " (" << static_cast<double>(stored) / static_cast<double>(i.record_count)
              << " bytes/record)";
  std::cout << "\ndigest        " << i.digest_hex() << "\n";
  return 0;
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(80, [](CLI::App& app) {
  using zermelo::cli::command_options;
  auto* verify = app.add_subcommand(
      "verify", "stream run files or job directories and check every checksum and digest");
  auto& paths = command_options<std::vector<std::string>>(verify, [](const auto& p) {
    int rc = zermelo::cli::run_verify(p);
    if (rc) throw CLI::RuntimeError(rc);
  });
  verify->add_option("paths", paths, "run files, or job directories with a manifest.json")
      ->required();
  verify->footer(
      "Example: zermelo verify work/tictactoe    (every output of the job)\n"
      "         zermelo verify work/tictactoe/values.run");

  auto* info =
      app.add_subcommand("info", "describe a run file (header and block index; no full read)");
  auto& file =
      command_options<std::string>(info, [](const std::string& f) { zermelo::cli::run_info(f); });
  info->add_option("file", file, "a run file")->required();
  info->footer("Example: zermelo info work/tictactoe/values.run");
});
