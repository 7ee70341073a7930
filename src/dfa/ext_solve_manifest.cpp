// The external solve's record, written durably and checked on reading
// (include/zermelo/dfa/ext_solve_manifest.hpp).
#include "zermelo/dfa/ext_solve_manifest.hpp"

#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "zermelo/io/durable_text.hpp"

namespace zermelo::dfa {
namespace {

using Json = nlohmann::json;
constexpr const char* kFormat = "zermelo-ext-solve-1";

std::string checksum_of(const Json& body) {
  const std::string text = body.dump();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())));
  return hex;
}

// The record of `path`, its checksum checked (the checksum field removed).
Json read_record(const std::string& path) {
  Json doc;
  try {
    doc = Json::parse(read_text_file(path, "the external solve's record"));
  } catch (const Json::exception& e) {
    throw std::runtime_error(path + ": not a valid external solve record: " + e.what());
  }
  if (!doc.is_object() || doc.value("format", "") != kFormat || !doc.contains("checksum"))
    throw std::runtime_error(path + ": not a " + std::string(kFormat) + " record");
  const Json sum = doc["checksum"];
  doc.erase("checksum");
  if (sum != checksum_of(doc))
    throw std::runtime_error(path + ": the record does not match its checksum (damaged or edited)");
  return doc;
}

}  // namespace

ExtSolveManifest::ExtSolveManifest(std::string dir, const Json& identity) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  if (!std::filesystem::exists(path())) {
    doc_ = {{"format", kFormat}, {"identity", identity}};
    save("start");
    return;
  }
  doc_ = read_record(path());
  if (doc_["identity"] != identity)
    throw std::runtime_error(dir_ + ": holds another external solve (" + doc_["identity"].dump() +
                             ", not " + identity.dump() +
                             "); use another --external directory or remove this one");
}

void ExtSolveManifest::save(const std::string& stage) {
  Json sealed = doc_;
  sealed["checksum"] = checksum_of(doc_);
  replace_text_durably(path(), sealed.dump(1) + "\n");
  if (const char* f = std::getenv("ZERMELO_EXT_FAULT_AFTER"); f && stage == f) std::_Exit(77);
}

}  // namespace zermelo::dfa
