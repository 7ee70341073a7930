// The set file format on run files (see include/zermelo/dfa/set_file.hpp).
#include "zermelo/dfa/set_file.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace zermelo::dfa {
namespace {

constexpr const char* kRecordType = "zermelo.dfa_set";
constexpr std::uint32_t kVersion = 2;  // version 1 was a standalone file with its own checksum

// Reads the file's 32-bit words in order; every problem becomes a SetFileError naming the file.
class WordReader {
 public:
  explicit WordReader(const std::string& path) : path_(path) {
    try {
      run_ = std::make_unique<RunReader>(path);
    } catch (const RunFileError& e) {
      throw SetFileError(std::string("cannot read DFA set file: ") + e.what());
    }
    const RunOptions& o = run_->info().options;
    if (o.record_type != kRecordType || o.record_size != sizeof(std::uint32_t))
      throw SetFileError(path + ": not a DFA set file (a run of '" + o.record_type + "' records)");
  }
  std::uint32_t word(const char* what) {
    std::uint32_t w = 0;
    bool got = false;
    try {
      got = run_->next(w);
    } catch (const RunFileError& e) {
      throw SetFileError(std::string("corrupt DFA set file: ") + e.what());
    }
    if (!got) throw SetFileError(path_ + ": set file ends early (while reading " + what + ")");
    return w;
  }
  bool at_end() {
    std::uint32_t w = 0;
    try {
      return !run_->next(w);
    } catch (const RunFileError& e) {
      throw SetFileError(std::string("corrupt DFA set file: ") + e.what());
    }
  }

 private:
  std::string path_;
  std::unique_ptr<RunReader> run_;
};

}  // namespace

std::uint64_t save_set(const Set& set, const std::string& path) {
  Manager& m = *set.manager();
  const unsigned L = m.length();
  // The set's states grouped by layer (a bit per table slot marks the visited ones: sets of tens
  // of millions of states are saved, so no hash maps), each layer in id order for a deterministic
  // file. Local index 0 = dead, 1 = accept, then layer L-1 up to layer 0.
  std::vector<std::vector<NodeId>> by_layer(L);
  if (set.root() > kAcceptNode) {
    std::vector<bool> seen(m.table_slots(), false);
    std::vector<NodeId> stack{set.root()};
    seen[set.root()] = true;
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      by_layer[m.layer_of(n)].push_back(n);
      for (unsigned c = 0; c < m.alphabet(m.layer_of(n)); ++c) {
        NodeId k = m.child(n, c);
        if (k > kAcceptNode && !seen[k]) {
          seen[k] = true;
          stack.push_back(k);
        }
      }
    }
  }
  for (auto& layer : by_layer) std::sort(layer.begin(), layer.end());
  // Node id -> local index, as two parallel arrays sorted by id.
  std::vector<NodeId> ids_sorted{kEmptyNode, kAcceptNode};
  for (auto& layer : by_layer) ids_sorted.insert(ids_sorted.end(), layer.begin(), layer.end());
  std::sort(ids_sorted.begin(), ids_sorted.end());
  std::vector<std::uint32_t> local_of(ids_sorted.size(), 0);
  auto slot = [&](NodeId n) {
    return static_cast<std::size_t>(std::lower_bound(ids_sorted.begin(), ids_sorted.end(), n) -
                                    ids_sorted.begin());
  };
  local_of[slot(kAcceptNode)] = 1;

  RunOptions options;
  options.record_size = sizeof(std::uint32_t);
  options.record_type = kRecordType;
  options.block_bytes = 1u << 20;
  RunWriter out(path, options);
  out.push<std::uint32_t>(kVersion);
  out.push<std::uint32_t>(L);
  for (unsigned i = 0; i < L; ++i) out.push<std::uint32_t>(m.alphabet(i));
  for (unsigned i = 0; i < L; ++i) {
    std::uint64_t count = by_layer[i].size();
    out.push<std::uint32_t>(static_cast<std::uint32_t>(count));
    out.push<std::uint32_t>(static_cast<std::uint32_t>(count >> 32));
  }
  std::uint32_t next = 2;
  std::vector<std::uint32_t> kids;
  for (unsigned layer = L; layer-- > 0;) {
    for (NodeId n : by_layer[layer]) {
      kids.clear();
      for (unsigned c = 0; c < m.alphabet(layer); ++c)
        kids.push_back(local_of[slot(m.child(n, c))]);
      out.append_many(kids.data(), kids.size());
      local_of[slot(n)] = next++;
    }
  }
  out.push<std::uint32_t>(local_of[slot(set.root())]);
  return out.finish().file_bytes;
}

Set load_set(Manager& m, const std::string& path) {
  WordReader r(path);
  if (std::uint32_t v = r.word("the version"); v != kVersion)
    throw SetFileError(path + ": unsupported set file version " + std::to_string(v));
  std::uint32_t L = r.word("the string length");
  if (L != m.length())
    throw SetFileError(path + ": strings of length " + std::to_string(L) + ", expected " +
                       std::to_string(m.length()));
  for (unsigned i = 0; i < L; ++i)
    if (r.word("the alphabets") != m.alphabet(i))
      throw SetFileError(path + ": alphabet of position " + std::to_string(i) +
                         " differs from this game's");
  std::vector<std::uint64_t> counts(L);
  for (unsigned i = 0; i < L; ++i) {
    std::uint64_t lo = r.word("the state counts");
    counts[i] = lo | static_cast<std::uint64_t>(r.word("the state counts")) << 32;
  }
  std::vector<NodeId> ids{kEmptyNode, kAcceptNode};
  std::vector<NodeId> kids(m.arity());
  for (unsigned layer = L; layer-- > 0;) {
    for (std::uint64_t j = 0; j < counts[layer]; ++j) {
      std::fill(kids.begin(), kids.end(), kEmptyNode);
      for (unsigned c = 0; c < m.alphabet(layer); ++c) {
        std::uint32_t k = r.word("the states");
        if (k >= ids.size())
          throw SetFileError(path + ": a layer-" + std::to_string(layer) +
                             " state refers to a state not yet defined");
        kids[c] = ids[k];
      }
      try {
        ids.push_back(m.make_node(layer, kids.data()));
      } catch (const std::invalid_argument& e) {
        throw SetFileError(path + ": " + e.what());
      }
    }
  }
  std::uint32_t root = r.word("the root");
  if (root >= ids.size() || (ids[root] != kEmptyNode && m.layer_of(ids[root]) != 0))
    throw SetFileError(path + ": bad root index");
  if (!r.at_end()) throw SetFileError(path + ": trailing records after the set");
  return m.adopt(ids[root]);
}

}  // namespace zermelo::dfa
