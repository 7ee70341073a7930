#include "zermelo/pipeline/manifest.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "zermelo/io/durable_text.hpp"
#include "zermelo/pipeline/manifest_seal.hpp"

namespace zermelo {
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// Two identities are one job if equal, or if they differ only in how the lower tiers' values
// runs are named: manifests before 2026-11-24 stored those paths relative to the directory the
// solve was started from, now they are relative to the job directory.
bool same_job(const Json& stored, const Json& wanted) {
  if (stored == wanted) return true;
  if (!stored.is_object() || !wanted.is_object() || !stored.contains("lower")) return false;
  Json a = stored, b = wanted;
  if (!a["lower"].is_array() || !b["lower"].is_array() || a["lower"].size() != b["lower"].size())
    return false;
  for (std::size_t i = 0; i < a["lower"].size(); ++i) {
    if (!a["lower"][i].is_string() || !b["lower"][i].is_string()) return false;
    a["lower"][i] = fs::path(a["lower"][i].get<std::string>()).filename().string();
    b["lower"][i] = fs::path(b["lower"][i].get<std::string>()).filename().string();
  }
  return a == b;
}

const Json* find_stage(const Json& doc, const std::string& stage) {
  for (auto& s : doc["stages"])
    if (s["name"] == stage) return &s;
  return nullptr;
}

}  // namespace

void forget_damaged_stages(Manifest& manifest) {
  const auto bad = manifest.first_damaged_stage();
  if (!bad) return;
  std::cerr << "zermelo: " << bad->second << "\nzermelo: stage " << bad->first
            << " cannot be built on; resuming from the last stage before it whose outputs verify\n";
  manifest.forget_from(bad->first);
}

Json read_manifest(const std::string& dir, bool sealed_only) {
  const std::string p = dir + "/manifest.json";
  if (!fs::exists(p))
    throw std::runtime_error(dir + ": no manifest.json (not a Zermelo job directory)");
  const std::string text = read_text_file(p, "the manifest");
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::exception& e) {
    throw std::runtime_error(p + ": not a valid manifest: " + e.what());
  }
  switch (check_manifest_seal(text)) {
    case SealState::kMismatch:
      throw std::runtime_error(p +
                               ": the manifest does not match its checksum (damaged or edited)");
    case SealState::kMissing:
      if (sealed_only)
        throw std::runtime_error(p +
                                 ": the manifest has no checksum (written by an older Zermelo; "
                                 "the same solve command adds one)");
      break;
    case SealState::kValid:
      break;
  }
  if (!doc.is_object() || doc.value("format", "") != "zermelo-manifest-1" ||
      !doc.contains("stages") || !doc["stages"].is_array())
    throw std::runtime_error(p + ": not a zermelo-manifest-1 document");
  doc.erase("checksum");
  return doc;
}

std::string relative_to_job(const std::string& dir, const std::string& path) {
  const fs::path base = fs::absolute(dir).lexically_normal();
  return fs::absolute(path).lexically_normal().lexically_relative(base).string();
}

Manifest::Manifest(std::string job_dir, const std::string& job, const Json& params)
    : dir_(std::move(job_dir)) {
  fs::create_directories(dir_);
  if (fs::exists(dir_ + "/manifest.json")) {
    doc_ = read_manifest(dir_, false);
    if (doc_.value("job", "") != job || !same_job(doc_.value("params", Json{}), params))
      throw std::runtime_error(dir_ + ": holds another job (" + doc_.value("job", "?") + " " +
                               doc_.value("params", Json{}).dump() +
                               "); use another --work-dir or remove it");
    doc_["params"] = params;
  } else {
    doc_ = {{"format", "zermelo-manifest-1"},
            {"job", job},
            {"params", params},
            {"stages", Json::array()}};
  }
  save();  // seals a manifest of an older Zermelo, and a new one is on disk at once
}

std::string Manifest::path(const std::string& relative) const { return dir_ + "/" + relative; }

bool Manifest::done(const std::string& stage) const {
  const Json* s = find_stage(doc_, stage);
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

std::optional<std::pair<std::string, std::string>> Manifest::first_damaged_stage() const {
  for (auto& s : doc_["stages"])
    for (auto& o : s["outputs"]) {
      try {
        RunInfo info = verify_run(path(o["path"]));
        if (info.digest_hex() != o["digest"] || info.record_count != o["records"])
          return std::make_pair(s["name"].get<std::string>(),
                                path(o["path"]) + ": differs from the manifest's record of it");
      } catch (const std::exception& e) {
        return std::make_pair(s["name"].get<std::string>(), std::string(e.what()));
      }
    }
  return std::nullopt;
}

void Manifest::record(const std::string& stage, const std::vector<RunInfo>& outputs,
                      const Json& facts) {
  // For the MPI resume test: this rank is killed while another records the stage first.
  if (const char* f = std::getenv("ZERMELO_STALL_BEFORE_STAGE"); f && stage == f)
    std::this_thread::sleep_for(std::chrono::seconds(5));
  forget_from(stage);
  Json outs = Json::array();
  for (auto& o : outputs)
    outs.push_back({{"path", relative_to_job(dir_, o.path)},
                    {"records", o.record_count},
                    {"digest", o.digest_hex()},
                    {"bytes", o.file_bytes},
                    {"type", o.options.record_type}});
  doc_["stages"].push_back({{"name", stage}, {"outputs", outs}, {"facts", facts}});
  save();
  // Fault injection for the resume tests: die like a killed process right after this stage.
  if (const char* f = std::getenv("ZERMELO_FAULT_AFTER_STAGE"); f && stage == f) std::_Exit(77);
}

Json Manifest::facts(const std::string& stage) const {
  const Json* s = find_stage(doc_, stage);
  return s ? (*s)["facts"] : Json();
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

void Manifest::describe(const std::string& key, const Json& value) {
  if (doc_.contains(key) && doc_[key] == value) return;
  doc_[key] = value;
  save();
}

void Manifest::save() const {
  Json sealed = doc_;
  sealed["checksum"] = "";
  replace_text_durably(dir_ + "/manifest.json", seal_manifest_text(sealed.dump(2) + "\n"));
}

}  // namespace zermelo
