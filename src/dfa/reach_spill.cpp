// The spill directory of a meet-in-the-middle solve (see reach_spill.hpp).
#include "reach_spill.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "zermelo/dfa/set_file.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::dfa::detail {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordType = "zermelo.dfa_backed_up";
constexpr const char* kBackedUpPrefix = "backed_up_";
// backed_up_K.run, K the lowest ply backed up: a record of 16 little-endian u64 words each. The
// first is the forward search's totals (tag 0: plies, then the positions, states and bytes of all
// plies' union), then one per ply backed up, deepest first (tag 1: ply, then positions, states,
// bytes of R, Open, Won and Lost, the passed states, and the seconds as double bits).
using Record = std::array<std::uint64_t, 16>;
constexpr std::uint64_t kForwardTag = 0, kStepTag = 1;

void put(Record& r, std::size_t& at, const SetStats& s) {
  r[at++] = s.positions, r[at++] = s.states, r[at++] = s.bytes;
}
SetStats take(const Record& r, std::size_t& at) {
  SetStats s;
  s.positions = r[at++], s.states = r[at++], s.bytes = r[at++];
  return s;
}

Record forward_record(const BackedUp& b) {
  Record r{};
  std::size_t at = 0;
  r[at++] = kForwardTag, r[at++] = b.plies;
  put(r, at, b.distinct);
  return r;
}

Record step_record(const ReachStep& s) {
  Record r{};
  std::size_t at = 0;
  r[at++] = kStepTag, r[at++] = s.ply;
  for (const SetStats* x : {&s.reach, &s.undecided, &s.won, &s.lost}) put(r, at, *x);
  r[at++] = s.passed_states;
  r[at++] = std::bit_cast<std::uint64_t>(s.seconds);
  return r;
}

ReachStep step_of(const Record& r) {
  ReachStep s;
  std::size_t at = 1;
  s.ply = static_cast<unsigned>(r[at++]);
  for (SetStats* x : {&s.reach, &s.undecided, &s.won, &s.lost}) *x = take(r, at);
  s.passed_states = r[at++];
  s.seconds = std::bit_cast<double>(r[at++]);
  s.backup_resumed = true;
  return s;
}

BackedUp read_backed_up(const std::string& path) {
  RunReader in(path);
  const auto bad = [&](const std::string& why) {
    return std::runtime_error(path + ": not the back-up table of a solve (" + why + ")");
  };
  if (in.info().options.record_type != kRecordType || in.record_size() != sizeof(Record))
    throw bad("a run of '" + in.info().options.record_type + "' records");
  Record r{};
  if (!in.next(r) || r[0] != kForwardTag) throw bad("no forward totals first");
  BackedUp b;
  std::size_t at = 1;
  b.plies = r[at++];
  b.distinct = take(r, at);
  while (in.next(r)) {
    if (r[0] != kStepTag) throw bad("a record that is not a ply's");
    b.steps.push_back(step_of(r));
    if (b.steps.back().ply + b.steps.size() != b.plies) throw bad("plies out of order");
  }
  if (b.steps.empty()) throw bad("no ply backed up");
  return b;
}

}  // namespace

ReachSpill::ReachSpill(Manager& m, std::string dir) : m_(m), dir_(std::move(dir)) {
  if (on()) fs::create_directories(dir_);
}

std::string ReachSpill::path(const char* what, std::size_t ply) const {
  return dir_ + "/" + what + "_" + std::to_string(ply) + ".zdfa";
}

bool ReachSpill::has_forward(std::size_t ply) const {
  return fs::exists(path("reach", ply)) && fs::exists(path("open", ply));
}

void ReachSpill::save_forward(std::size_t ply, Set& reach, Set& open) const {
  save_set(reach, path("reach", ply));
  save_set(open, path("open", ply));
  reach = open = m_.empty();
}

std::pair<Set, Set> ReachSpill::load_forward(std::size_t ply) const {
  return {load_set(m_, path("reach", ply)), load_set(m_, path("open", ply))};
}

std::string ReachSpill::table_path(std::size_t ply) const {
  return dir_ + "/" + kBackedUpPrefix + std::to_string(ply) + ".run";
}

// The table of the lowest ply: a table is renamed into place once complete, and the one of the ply
// above removed only after that, so the lowest table there is the last one finished.
std::optional<BackedUp> ReachSpill::load_backed_up() const {
  if (!on()) return std::nullopt;
  std::optional<std::size_t> lowest;
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    if (!name.starts_with(kBackedUpPrefix) || !name.ends_with(".run")) continue;
    const std::string digits =
        name.substr(std::strlen(kBackedUpPrefix), name.size() - std::strlen(kBackedUpPrefix) - 4);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::size_t ply = std::stoull(digits);
    if (!lowest || ply < *lowest) lowest = ply;
  }
  if (!lowest) return std::nullopt;
  BackedUp b = read_backed_up(table_path(*lowest));
  if (b.lowest() != *lowest)
    throw std::runtime_error(table_path(*lowest) + ": the table of another ply");
  return b;
}

Set ReachSpill::load_passed(std::size_t ply) const { return load_set(m_, path("passed", ply)); }

void ReachSpill::save_backed_up(const BackedUp& done, const Set& passed) const {
  const std::size_t ply = done.lowest();
  save_set(passed, path("passed", ply));
  RunOptions o;
  o.record_size = sizeof(Record);
  o.record_type = kRecordType;
  RunWriter out(table_path(ply), o);
  out.push(forward_record(done));
  for (const ReachStep& s : done.steps) out.push(step_record(s));
  out.finish();
  for (const std::string& f :
       {path("reach", ply), path("open", ply), path("passed", ply + 1), table_path(ply + 1)})
    fs::remove(f);
}

void ReachSpill::clear() const { remove_files(true); }
void ReachSpill::clear_backed_up() const { remove_files(false); }

void ReachSpill::remove_files(bool forward_too) const {
  if (!on()) return;
  std::vector<fs::path> ours;  // not removed while the directory is iterated
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    const bool forward = name.starts_with("reach_") || name.starts_with("open_");
    const bool set_file = name.find(".zdfa") != std::string::npos;
    if ((forward_too && forward && set_file) || (name.starts_with("passed_") && set_file) ||
        name.starts_with(kBackedUpPrefix))
      ours.push_back(e.path());
  }
  for (const fs::path& f : ours) fs::remove(f);
}

}  // namespace zermelo::dfa::detail
