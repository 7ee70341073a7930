// The solve's stages and files, by type: the one place that knows their names on disk.
//
// Why: the manifest names stages by strings ("level-12") and the job directory holds files by
// name ("frontier-13.run"); resuming reads both back. Spelling and parsing them in one table
// keeps a resumed solve, the cleanup after "final" and the steps that write them in agreement:
// the cleanup list is derived from the table, never kept beside it by hand. The names are those
// of earlier versions, so their work dirs still resume.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zermelo::retro {

// A manifest stage. The numbered ones carry the chunk (scan_chunk) or the level d.
struct Stage {
  enum class Kind {
    enumerate,       // "enumerate": keys.run, the tier's states sorted
    scan_chunk,      // "init-chunk-<i>": the initial scan's parts of chunk i
    scan,            // "init": the parts joined (scheduled.run, edges.run, decided parts)
    initial_states,  // "initial-states": S_0 and F_0, superseded by level 0
    level,           // "level-<d>": S_{d+1} and F_{d+1}, superseding level d-1
    decided,         // "decided-<d>": F_d kept as the states decided in d plies
    final,           // "final": the values run
  };
  Kind kind;
  std::uint64_t n = 0;

  static Stage enumerate() { return {Kind::enumerate}; }
  static Stage scan_chunk(std::uint64_t i) { return {Kind::scan_chunk, i}; }
  static Stage scan() { return {Kind::scan}; }
  static Stage initial_states() { return {Kind::initial_states}; }
  static Stage level(std::uint32_t d) { return {Kind::level, d}; }
  static Stage decided(std::uint32_t d) { return {Kind::decided, d}; }
  static Stage final() { return {Kind::final}; }

  std::uint32_t d() const { return static_cast<std::uint32_t>(n); }
  std::string name() const;
  // The stage a manifest name stands for; nullopt for a name this solver does not write.
  static std::optional<Stage> parse(std::string_view name);
};

// A working run of the job directory; the numbered ones carry a chunk or a level.
enum class Run {
  keys,            // keys.run: the sorted states (enumerate); under MPI the rank's range
  share_keys,      // keys-share.run: the rank's share of the enumeration, sorted (MPI)
  values_part,     // values-part.run: the values blocks starting in a rank's range (MPI)
  answers,         // answers.run: lower tiers' values as scheduled messages (scan)
  scheduled,       // scheduled.run: work for later levels, sorted by level then key
  edges,           // edges.run: reverse edges, sorted by child
  undecided_part,  // undecided-<i>.run: chunk i's undecided states
  decided_part,    // decided-init-<i>.run: chunk i's decided states (kept to the end)
  scheduled_part,  // scheduled-<i>.run
  lookups_part,    // lookups-<i>.run: chunk i's children in lower tiers, sorted by child
  edges_part,      // edges-<i>.run
  states,          // states-<d>.run: S_d, the states undecided before level d
  frontier,        // frontier-<d>.run: F_d, the states decided in d plies
};

// The external sorters of a solve; each spills into its own scratch dir, "<name>.sort".
enum class Sorter { enumerate, scheduled, edges, lookups, answers, messages, final };

// The paths of one job directory, or of one shard's folder in it.
class Layout {
 public:
  explicit Layout(std::string dir) : dir_(std::move(dir)) {}
  // Where shard `shard` of `shards` keeps its working runs and scratch dirs: the job directory
  // itself when there is one shard (an unsharded solve's names), else its folder "shard-<s>"
  // (docs/shards.md). The folder is created.
  Layout shard(unsigned shard, unsigned shards) const;
  std::string path(Run run, std::uint64_t n = 0) const;
  std::string scratch(Sorter sorter) const;
  std::string values(const std::string& tier) const;
  void remove(Run run, std::uint64_t n = 0) const;  // quietly: it may be gone already
  // Every working run (also half-written), scratch dir and shard folder: what a finished solve
  // keeps not.
  void remove_working_files() const;

 private:
  std::string dir_;
};

}  // namespace zermelo::retro
