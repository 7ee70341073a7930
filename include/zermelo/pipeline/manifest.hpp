// The job manifest: what makes a long solve resumable and its outputs checkable.
//
// A job directory holds manifest.json, listing the job's parameters and each finished stage with
// the run files it produced (path relative to the job directory, record count, digest, bytes,
// record type). A stage is recorded only after its outputs are complete and renamed; on resume,
// a stage whose outputs all exist, are complete and carry the recorded digests is skipped. The
// manifest is rewritten through a temporary file and a rename, so a kill leaves either the old or
// the new one, and it carries a checksum of its own bytes (manifest_seal.hpp): a hand-edited or
// damaged manifest is refused, never believed. Paths inside it are relative to its directory, so
// a work dir can be moved.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "zermelo/io/run_file.hpp"

namespace zermelo {

class Manifest {
 public:
  // Opens (or starts) the manifest of `job_dir`. If one exists with other parameters, throws:
  // a job directory belongs to one job. A damaged manifest (checksum) is an error too.
  Manifest(std::string job_dir, const std::string& job, const nlohmann::json& params);

  // True if the stage was recorded and every output still matches (cheap: header + footer).
  bool done(const std::string& stage) const;
  // Records a finished stage (outputs given as absolute or job-relative paths) with extra facts.
  void record(const std::string& stage, const std::vector<RunInfo>& outputs,
              const nlohmann::json& facts = {});
  // The facts recorded with a stage (null if none).
  nlohmann::json facts(const std::string& stage) const;
  // Forgets a stage and every stage recorded after it (used when a later stage must be redone).
  void forget_from(const std::string& stage);
  // Forgets one stage (its outputs were superseded and deleted).
  void erase(const std::string& stage);
  std::vector<std::string> stages() const;  // in the order recorded
  // The first recorded stage with an output that fails a full streaming check, with what is wrong
  // (every block read): what a resume must not build on. Empty if all outputs verify.
  std::optional<std::pair<std::string, std::string>> first_damaged_stage() const;

  // Sets a top-level entry that describes the job without being part of its identity (e.g. the
  // game's name and options, for readers of the work dir).
  void describe(const std::string& key, const nlohmann::json& value);

  std::string path(const std::string& relative) const;  // job_dir/relative
  const std::string& dir() const { return dir_; }
  const nlohmann::json& json() const { return doc_; }

 private:
  void save() const;
  std::string dir_;
  nlohmann::json doc_;
};

// Before a resume: a job builds on recorded stages only if every block of their outputs still
// reads back (a damaged run would otherwise fail every resume the same way). Forgets the first
// damaged stage and every stage after it, saying so on stderr, so the job redoes them.
void forget_damaged_stages(Manifest& manifest);

// The manifest of `dir`, its checksum checked; throws naming the file if it is missing, is not
// JSON or does not match its checksum. `sealed_only`: a manifest without a checksum (written by
// an older Zermelo) is an error too.
nlohmann::json read_manifest(const std::string& dir, bool sealed_only);

// A job-relative form of `path` for a manifest in `dir` (paths given relative to the current
// directory or absolute both become relative to dir).
std::string relative_to_job(const std::string& dir, const std::string& path);

}  // namespace zermelo
