// Reading a solved work dir bound to its manifest (solved_database.hpp).
#include "zermelo/pipeline/solved_database.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"

namespace zermelo {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string spelled(const std::string& name, const std::vector<std::string>& options) {
  std::string s = name;
  for (auto& o : options) s += " " + o;
  return s;
}

// The game the manifest describes, after checking the request against it.
std::unique_ptr<Game> described_game(const std::string& dir, const json& doc,
                                     const GameRequest& asked) {
  if (!doc.contains("game") || !doc["game"].is_object())
    throw std::runtime_error(dir +
                             ": the manifest does not name its game (written by an older "
                             "Zermelo; the same solve command adds it)");
  const json& g = doc["game"];
  const std::string name = g.value("name", "");
  const auto options = g.value("options", std::vector<std::string>{});
  const std::string held = spelled(name, options);
  if (!asked.name.empty() && asked.name != name)
    throw std::invalid_argument("asked about " + spelled(asked.name, asked.options) + ", but " +
                                dir + " holds " + held);
  auto game = make_game(name, options);
  if (game->variant() != g.value("variant", ""))
    throw std::runtime_error(dir + ": the manifest's game (" + held + ") makes variant '" +
                             game->variant() + "', not the recorded '" + g.value("variant", "") +
                             "'");
  if (asked.options_given && make_game(name, asked.options)->variant() != game->variant())
    throw std::invalid_argument("asked about " + spelled(name, asked.options) + ", but " + dir +
                                " holds " + held);
  return game;
}

// A values run as the manifest recorded it; anything else is refused.
std::string checked_values(const std::string& dir, const json& output) {
  const std::string path = dir + "/" + output.value("path", "");
  RunInfo info;
  try {
    info = inspect_run(path);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(e.what()) + " (recorded in " + dir + "/manifest.json)");
  }
  if (info.digest_hex() != output.value("digest", "") ||
      info.record_count != output.value("records", std::uint64_t{0}) ||
      info.file_bytes != output.value("bytes", std::uint64_t{0}) || !is_values_run(info.options))
    throw std::runtime_error(path + ": not the values run " + dir +
                             "/manifest.json records (digest " + info.digest_hex() + ", " +
                             std::to_string(info.record_count) + " records, against " +
                             output.value("digest", "?") + ", " +
                             std::to_string(output.value("records", std::uint64_t{0})) + ")");
  return path;
}

const json& only_output(const std::string& dir, const json& stage) {
  if (!stage.contains("outputs") || stage["outputs"].size() != 1)
    throw std::runtime_error(dir + "/manifest.json: stage " + stage.value("name", "?") +
                             " does not list one values run");
  return stage["outputs"][0];
}

}  // namespace

json game_description(const Game& g) {
  return {{"name", g.name()}, {"options", g.options()}, {"variant", g.variant()}};
}

std::unique_ptr<Game> game_of_work_dir(const std::string& work_dir, const GameRequest& asked) {
  if (!fs::exists(work_dir + "/manifest.json")) {
    if (asked.name.empty())
      throw std::invalid_argument(work_dir + ": no manifest.json, so the game must be named");
    return make_game(asked.name, asked.options);
  }
  return described_game(work_dir, read_manifest(work_dir, true), asked);
}

SolvedDatabase::SolvedDatabase(const std::string& work_dir, const GameRequest& asked)
    : dir_(work_dir) {
  if (!fs::exists(work_dir + "/manifest.json"))
    throw std::runtime_error(work_dir +
                             ": no solved game here (no manifest.json; solve into it "
                             "first, or give the right --work-dir)");
  const json doc = read_manifest(work_dir, true);
  game_ = described_game(work_dir, doc, asked);
  const std::string job = doc.value("job", "");
  for (auto& stage : doc["stages"]) {
    const std::string name = stage.value("name", "");
    std::string tier;
    if (job == "retrograde" && name == "final")
      tier = doc["params"].value("tier", "all");
    else if (job == "solve" && name.rfind("tier-", 0) == 0)
      tier = name.substr(5);
    else
      continue;
    values_[tier] = checked_values(work_dir, only_output(work_dir, stage));
    digests_[tier] = only_output(work_dir, stage).value("digest", "");
  }
  if (job != "retrograde" && job != "solve")
    throw std::runtime_error(work_dir + " holds a '" + job + "' job, not a solved game");
  if (values_.empty())
    throw std::runtime_error(work_dir +
                             ": the solve has not finished (the same solve command "
                             "resumes it)");
}

const std::string& SolvedDatabase::values(const std::string& tier) const {
  auto it = values_.find(tier);
  if (it == values_.end())
    throw std::runtime_error(game_->name() + ": tier " + tier + " is not solved in " + dir_);
  return it->second;
}

std::unique_ptr<RunReader> SolvedDatabase::open_values(const std::string& tier) const {
  const std::string& path = values(tier);
  auto reader = std::make_unique<RunReader>(path);
  if (reader->info().digest_hex() != digests_.at(tier))
    throw std::runtime_error(path + ": replaced since " + dir_ + " was opened (digest " +
                             reader->info().digest_hex() + ", recorded " + digests_.at(tier) + ")");
  return reader;
}

std::vector<std::string> SolvedDatabase::tiers() const {
  std::vector<std::string> out;
  for (auto& t : game_->tiers())
    if (solved(t.name)) out.push_back(t.name);
  return out;
}

std::vector<std::string> SolvedDatabase::all_values() const {
  std::vector<std::string> out;
  for (auto& t : tiers()) out.push_back(values(t));
  return out;
}

std::vector<std::string> SolvedDatabase::values_below(const std::string& tier) const {
  std::vector<std::string> out;
  for (auto& t : game_->tiers())
    if (t.name == tier)
      for (auto& dep : t.depends_on) out.push_back(values(dep));
  return out;
}

Value SolvedDatabase::value(StateKey key) const {
  return lookup_value(values(game_->tier_of(key)), key);
}

}  // namespace zermelo
