#include "zermelo/pipeline/manifest.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace fs = std::filesystem;

static nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not a valid manifest: " + e.what());
  }
}

Manifest::Manifest(std::string job_dir, const std::string& job, const nlohmann::json& params) : dir_(std::move(job_dir)) {
  fs::create_directories(dir_);
  std::string p = dir_ + "/manifest.json";
  if (fs::exists(p)) {
    doc_ = load_json(p);
    if (doc_.value("job", "") != job || doc_.value("params", nlohmann::json{}) != params)
      throw std::runtime_error(dir_ + ": holds another job (" + doc_.value("job", "?") + " " +
                               doc_.value("params", nlohmann::json{}).dump() + "); use another --work-dir or remove it");
  } else {
    doc_ = {{"format", "zermelo-manifest-1"}, {"job", job}, {"params", params}, {"stages", nlohmann::json::array()}};
    save();
  }
}

std::string Manifest::path(const std::string& relative) const { return dir_ + "/" + relative; }

static const nlohmann::json* find_stage(const nlohmann::json& doc, const std::string& stage) {
  for (auto& s : doc["stages"])
    if (s["name"] == stage) return &s;
  return nullptr;
}

bool Manifest::done(const std::string& stage) const {
  const nlohmann::json* s = find_stage(doc_, stage);
  if (!s) return false;
  for (auto& o : (*s)["outputs"]) {
    try {
      RunInfo info = inspect_run(path(o["path"]));
      if (info.digest_hex() != o["digest"] || info.record_count != o["records"]) return false;
    } catch (const RunFileError&) {
      return false;
    }
  }
  return true;
}

void Manifest::record(const std::string& stage, const std::vector<RunInfo>& outputs, const nlohmann::json& facts) {
  forget_from(stage);
  nlohmann::json outs = nlohmann::json::array();
  for (auto& o : outputs) {
    std::string rel = fs::path(o.path).is_absolute() || o.path.rfind(dir_ + "/", 0) == 0
                          ? fs::relative(o.path, dir_).string()
                          : o.path;
    outs.push_back({{"path", rel}, {"records", o.record_count}, {"digest", o.digest_hex()}, {"bytes", o.file_bytes}});
  }
  doc_["stages"].push_back({{"name", stage}, {"outputs", outs}, {"facts", facts}});
  save();
  // Fault injection for the resume tests: die like a killed process right after this stage.
  if (const char* f = std::getenv("ZERMELO_FAULT_AFTER_STAGE"); f && stage == f) std::_Exit(77);
}

nlohmann::json Manifest::facts(const std::string& stage) const {
  const nlohmann::json* s = find_stage(doc_, stage);
  return s ? (*s)["facts"] : nlohmann::json();
}

void Manifest::forget_from(const std::string& stage) {
  auto& st = doc_["stages"];
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i]["name"] == stage) {
      st.erase(st.begin() + static_cast<std::ptrdiff_t>(i), st.end());
      save();
      return;
    }
}

void Manifest::erase(const std::string& stage) {
  auto& st = doc_["stages"];
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i]["name"] == stage) {
      st.erase(st.begin() + static_cast<std::ptrdiff_t>(i));
      save();
      return;
    }
}

std::vector<std::string> Manifest::stages() const {
  std::vector<std::string> out;
  for (auto& s : doc_["stages"]) out.push_back(s["name"]);
  return out;
}

void Manifest::save() const {
  std::string p = dir_ + "/manifest.json", tmp = p + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << doc_.dump(2) << "\n";
    out.flush();
    if (!out) throw std::runtime_error(tmp + ": cannot write the manifest (disk full?)");
  }
  fs::rename(tmp, p);
  sync_directory_of(p);
}

VerifyReport verify_job(const std::string& job_dir) {
  VerifyReport r;
  std::string p = job_dir + "/manifest.json";
  nlohmann::json doc = load_json(p);
  for (auto& s : doc["stages"])
    for (auto& o : s["outputs"]) {
      std::string f = job_dir + "/" + o["path"].get<std::string>();
      try {
        RunInfo info = verify_run(f);
        if (info.digest_hex() != o["digest"])
          r.problems.push_back(f + ": digest " + info.digest_hex() + " differs from the manifest's " + o["digest"].get<std::string>());
        else if (info.record_count != o["records"])
          r.problems.push_back(f + ": record count differs from the manifest");
        else
          r.ok.push_back(info);
      } catch (const std::exception& e) {
        r.problems.push_back(e.what());
      }
    }
  return r;
}

}  // namespace zermelo
