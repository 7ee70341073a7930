// The record that makes an external solve (ext_solve.hpp) resumable: DIR/manifest.json.
//
// A solve over external sets runs for hours, longer than a working session. After each ply the
// solver writes that ply's sets durably and only then records them here, with their digests and
// the job's identity (the command's words and the digests of the start and the known sets). The
// same command on the same directory reads the record back and goes on from the last recorded
// ply; a directory that holds another job is refused, so no answer comes from another job's
// sets. The file is rewritten through a temporary file, fsync'd and renamed, and carries an
// XXH3-64 checksum of its own text: a kill leaves the old record or the new one, and a damaged
// or edited record is refused, never believed.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace zermelo::dfa {

class ExtSolveManifest {
 public:
  // Opens the record of `dir` (created if absent). Throws std::runtime_error naming the
  // directory if it holds another job's record, or a damaged one.
  ExtSolveManifest(std::string dir, const nlohmann::json& identity);

  nlohmann::json& doc() { return doc_; }
  const nlohmann::json& doc() const { return doc_; }
  // Writes the record durably. `stage` names what was just recorded ("forward-3", "backup-2",
  // ...): the fault hook for the resume tests, ZERMELO_EXT_FAULT_AFTER=<stage>, ends the
  // process there as a kill would (exit status 77).
  void save(const std::string& stage);
  std::string path() const { return dir_ + "/manifest.json"; }

 private:
  std::string dir_;
  nlohmann::json doc_;
};

}  // namespace zermelo::dfa
