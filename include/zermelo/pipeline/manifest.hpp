// The job manifest: what makes a long solve resumable and its outputs checkable.
//
// A job directory holds manifest.json, listing the job's parameters and each finished stage with
// the run files it produced (path relative to the job directory, record count, digest). A stage is
// recorded only after its outputs are complete and renamed; on resume, a stage whose outputs all
// exist, are complete and carry the recorded digests is skipped. The manifest itself is rewritten
// through a temporary file and a rename, so a kill leaves either the old or the new one.
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
  // a job directory belongs to one job.
  Manifest(std::string job_dir, const std::string& job, const nlohmann::json& params);

  // True if the stage was recorded and every output still matches (cheap: header + footer).
  bool done(const std::string& stage) const;
  // Records a finished stage (outputs given as absolute or job-relative paths) with extra facts.
  void record(const std::string& stage, const std::vector<RunInfo>& outputs, const nlohmann::json& facts = {});
  // The facts recorded with a stage (null if none).
  nlohmann::json facts(const std::string& stage) const;
  // Forgets a stage and every stage recorded after it (used when a later stage must be redone).
  void forget_from(const std::string& stage);
  // Forgets one stage (its outputs were superseded and deleted).
  void erase(const std::string& stage);
  std::vector<std::string> stages() const;  // in the order recorded

  std::string path(const std::string& relative) const;  // job_dir/relative
  const std::string& dir() const { return dir_; }
  const nlohmann::json& json() const { return doc_; }

 private:
  void save() const;
  std::string dir_;
  nlohmann::json doc_;
};

// Checks a manifest's every output by streaming (every block's checksum, the digests).
// Returns one line per problem; empty when all is well.
struct VerifyReport {
  std::vector<RunInfo> ok;
  std::vector<std::string> problems;
};
VerifyReport verify_job(const std::string& job_dir);

}  // namespace zermelo
