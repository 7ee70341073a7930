// `verify DIR`: the manifest, every output it lists, and the jobs below it (verify_job.hpp).
#include "zermelo/pipeline/verify_job.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "zermelo/pipeline/manifest.hpp"

namespace zermelo {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool has_output_fields(const json& o) {
  return o.is_object() && o.contains("path") && o["path"].is_string() && o.contains("records") &&
         o["records"].is_number_unsigned() && o.contains("digest") && o["digest"].is_string() &&
         o.contains("bytes") && o["bytes"].is_number_unsigned();
}

// Files already read whole in this walk (a tiered job's root lists its tiers' values runs).
using Seen = std::map<std::string, RunInfo>;

// One listed output against the file: every block read, then each recorded fact compared.
void verify_output(const std::string& dir, const json& o, VerifyReport& r, Seen& seen) {
  const std::string f = dir + "/" + o["path"].get<std::string>();
  try {
    const std::string id = fs::weakly_canonical(f).string();
    const bool first = !seen.count(id);
    if (first) seen.emplace(id, verify_run(f));
    const RunInfo info = seen.at(id);
    std::string wrong;
    if (info.digest_hex() != o["digest"])
      wrong = "digest " + info.digest_hex();
    else if (info.record_count != o["records"])
      wrong = "record count";
    else if (info.file_bytes != o["bytes"] || fs::file_size(f) != o["bytes"])
      wrong = "size";
    else if (o.contains("type") && o["type"] != info.options.record_type)
      wrong = "record type";
    if (wrong.empty()) {
      if (first) r.ok.push_back(info);
      return;
    }
    r.problems.push_back(f + ": " + wrong + " differs from the manifest's record of it");
  } catch (const std::exception& e) {
    r.problems.push_back(e.what());
  }
}

void verify_one_manifest(const std::string& dir, VerifyReport& r, Seen& seen) {
  const json doc = read_manifest(dir, true);
  const std::string m = dir + "/manifest.json";
  if (doc["stages"].empty()) return r.problems.push_back(m + ": lists no finished stage");
  std::size_t outputs = 0;
  for (auto& s : doc["stages"]) {
    if (!s.is_object() || !s.contains("outputs") || !s["outputs"].is_array())
      return r.problems.push_back(m + ": a stage without a list of outputs");
    for (auto& o : s["outputs"]) {
      if (!has_output_fields(o)) return r.problems.push_back(m + ": an output without its facts");
      verify_output(dir, o, r, seen);
      ++outputs;
    }
  }
  if (outputs == 0) r.problems.push_back(m + ": lists no output");
}

// The working folder of MPI rank r > 0 (rank-<r>, docs/distributed.md): its manifest records
// the rank's own stages, whose outputs rank 0 holds in the job directory.
bool is_rank_folder(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 5 && name.compare(0, 5, "rank-") == 0 &&
         std::all_of(name.begin() + 5, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> job_subdirectories(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::exists(e.path() / "manifest.json") && !is_rank_folder(e.path()))
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void verify_tree(const std::string& dir, VerifyReport& r, Seen& seen) {
  try {
    verify_one_manifest(dir, r, seen);
  } catch (const std::exception& e) {
    r.problems.push_back(e.what());
  }
  for (auto& sub : job_subdirectories(dir)) verify_tree(sub, r, seen);
}

}  // namespace

VerifyReport verify_job(const std::string& job_dir) {
  VerifyReport r;
  Seen seen;
  verify_tree(job_dir, r, seen);
  return r;
}

}  // namespace zermelo
