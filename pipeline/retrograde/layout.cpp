// Stage and file names of a solve (layout.hpp).
#include "pipeline/retrograde/layout.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <vector>

#include "pipeline/stage_name.hpp"
#include "zermelo/engine/values_run.hpp"

namespace zermelo::retro {
namespace fs = std::filesystem;
namespace {

using Name = NumberedName;

constexpr std::array<std::pair<Stage::Kind, Name>, 7> kStages{{
    {Stage::Kind::enumerate, {"enumerate", false}},
    {Stage::Kind::scan_chunk, {"init-chunk", true}},
    {Stage::Kind::scan, {"init", false}},
    {Stage::Kind::initial_states, {"initial-states", false}},
    {Stage::Kind::level, {"level", true}},
    {Stage::Kind::decided, {"decided", true}},
    {Stage::Kind::final, {"final", false}},
}};

constexpr std::array<std::pair<Run, Name>, 13> kRuns{{
    {Run::keys, {"keys", false}},
    {Run::share_keys, {"keys-share", false}},
    {Run::values_part, {"values-part", false}},
    {Run::answers, {"answers", false}},
    {Run::scheduled, {"scheduled", false}},
    {Run::edges, {"edges", false}},
    {Run::undecided_part, {"undecided", true}},
    {Run::decided_part, {"decided-init", true}},
    {Run::scheduled_part, {"scheduled", true}},
    {Run::lookups_part, {"lookups", true}},
    {Run::edges_part, {"edges", true}},
    {Run::states, {"states", true}},
    {Run::frontier, {"frontier", true}},
}};

constexpr std::array<std::pair<Sorter, std::string_view>, 7> kSorters{{
    {Sorter::enumerate, "enumerate"},
    {Sorter::scheduled, "scheduled"},
    {Sorter::edges, "edges"},
    {Sorter::lookups, "lookups"},
    {Sorter::answers, "answers"},
    {Sorter::messages, "messages"},
    {Sorter::final, "final"},
}};

constexpr Name kShardFolder{"shard", true};

template <class Table, class Key>
const auto& lookup(const Table& table, Key key) {
  return std::find_if(table.begin(), table.end(), [&](auto& e) { return e.first == key; })->second;
}

// A run's file name: the run's name, ".run", and ".tmp" while it is being written.
bool is_working_run(std::string_view file) {
  auto strip = [&](std::string_view suffix) {
    const bool has = file.ends_with(suffix);
    if (has) file.remove_suffix(suffix.size());
    return has;
  };
  strip(".tmp");
  return strip(".run") &&
         std::any_of(kRuns.begin(), kRuns.end(), [&](auto& r) { return r.second.read(file); });
}

}  // namespace

std::string Stage::name() const { return lookup(kStages, kind).spell(n); }

std::optional<Stage> Stage::parse(std::string_view name) {
  for (const auto& [kind, spelling] : kStages)
    if (const auto n = spelling.read(name)) return Stage{kind, *n};
  return std::nullopt;
}

std::string Layout::path(Run run, std::uint64_t n) const {
  return dir_ + "/" + lookup(kRuns, run).spell(n) + ".run";
}

std::string Layout::scratch(Sorter sorter) const {
  return dir_ + "/" + std::string(lookup(kSorters, sorter)) + ".sort";
}

std::string Layout::values(const std::string& tier) const {
  return dir_ + "/" + values_run_name(tier);
}

Layout Layout::shard(unsigned shard, unsigned shards) const {
  if (shards == 1) return *this;
  Layout folder(dir_ + "/" + kShardFolder.spell(shard));
  fs::create_directories(folder.dir_);
  return folder;
}

void Layout::remove(Run run, std::uint64_t n) const {
  std::error_code ec;
  fs::remove(path(run, n), ec);
}

void Layout::remove_working_files() const {
  std::vector<fs::path> working;
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    if (is_working_run(name) || (e.is_directory() && kShardFolder.read(name)))
      working.push_back(e.path());
  }
  for (const auto& [sorter, name] : kSorters) working.push_back(scratch(sorter));
  std::error_code ec;
  for (const fs::path& p : working) fs::remove_all(p, ec);
}

}  // namespace zermelo::retro
