// The set file format (see include/zermelo/dfa/set_file.hpp).
#include "zermelo/dfa/set_file.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unordered_map>

namespace zermelo::dfa {
namespace {

constexpr char kMagic[8] = {'Z', 'D', 'F', 'A', 'S', 'E', 'T', '1'};
constexpr std::uint32_t kVersion = 1;

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

struct Reader {
  const std::string& data;
  const std::string& path;
  std::size_t pos = 0;
  template <class T>
  T get() {
    if (pos + sizeof(T) > data.size()) throw SetFileError(path + ": truncated set file");
    T v;
    std::memcpy(&v, data.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
  }
};

}  // namespace

std::uint64_t save_set(const Set& set, const std::string& path) {
  Manager& m = *set.manager();
  const unsigned L = m.length();
  // States grouped by layer; local index 0 = dead, 1 = accept, then layer L-1 up to layer 0.
  std::vector<std::vector<NodeId>> by_layer(L);
  std::unordered_map<NodeId, std::uint32_t> local{{kEmptyNode, 0}, {kAcceptNode, 1}};
  if (set.root() > kAcceptNode) {
    std::vector<NodeId> stack{set.root()};
    std::unordered_map<NodeId, bool> seen{{set.root(), true}};
    while (!stack.empty()) {
      NodeId n = stack.back();
      stack.pop_back();
      by_layer[m.layer_of(n)].push_back(n);
      for (unsigned c = 0; c < m.alphabet(m.layer_of(n)); ++c) {
        NodeId k = m.child(n, c);
        if (k > kAcceptNode && seen.emplace(k, true).second) stack.push_back(k);
      }
    }
  }
  for (auto& layer : by_layer) std::sort(layer.begin(), layer.end());  // deterministic order
  std::string out;
  out.append(kMagic, sizeof kMagic);
  put<std::uint32_t>(out, kVersion);
  put<std::uint32_t>(out, L);
  for (unsigned i = 0; i < L; ++i) put<std::uint8_t>(out, static_cast<std::uint8_t>(m.alphabet(i)));
  for (unsigned i = 0; i < L; ++i) put<std::uint64_t>(out, by_layer[i].size());
  std::uint32_t next = 2;
  for (unsigned layer = L; layer-- > 0;) {
    for (NodeId n : by_layer[layer]) {
      for (unsigned c = 0; c < m.alphabet(layer); ++c) put<std::uint32_t>(out, local.at(m.child(n, c)));
      local[n] = next++;
    }
  }
  put<std::uint32_t>(out, local.at(set.root()));
  put<std::uint64_t>(out, XXH3_64bits(out.data(), out.size()));

  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw SetFileError(path + ": cannot create " + tmp);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.flush();
    if (!f) throw SetFileError(path + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw SetFileError(path + ": cannot rename " + tmp);
  return out.size();
}

Set load_set(Manager& m, const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw SetFileError(path + ": cannot open set file");
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.size() < sizeof kMagic + 8 + 8 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    throw SetFileError(path + ": not a DFA set file (bad magic)");
  std::uint64_t stored;
  std::memcpy(&stored, data.data() + data.size() - 8, 8);
  if (XXH3_64bits(data.data(), data.size() - 8) != stored)
    throw SetFileError(path + ": checksum mismatch (file is corrupt)");
  Reader r{data, path, sizeof kMagic};
  if (r.get<std::uint32_t>() != kVersion) throw SetFileError(path + ": unsupported set file version");
  std::uint32_t L = r.get<std::uint32_t>();
  if (L != m.length()) throw SetFileError(path + ": strings of length " + std::to_string(L) + ", expected " + std::to_string(m.length()));
  for (unsigned i = 0; i < L; ++i)
    if (r.get<std::uint8_t>() != m.alphabet(i))
      throw SetFileError(path + ": alphabet of position " + std::to_string(i) + " differs from this game's");
  std::vector<std::uint64_t> counts(L);
  for (unsigned i = 0; i < L; ++i) counts[i] = r.get<std::uint64_t>();
  std::vector<NodeId> ids{kEmptyNode, kAcceptNode};
  std::vector<NodeId> kids(m.arity());
  for (unsigned layer = L; layer-- > 0;) {
    for (std::uint64_t j = 0; j < counts[layer]; ++j) {
      std::fill(kids.begin(), kids.end(), kEmptyNode);
      for (unsigned c = 0; c < m.alphabet(layer); ++c) {
        std::uint32_t k = r.get<std::uint32_t>();
        if (k >= ids.size()) throw SetFileError(path + ": state refers to a later state");
        kids[c] = ids[k];
      }
      try {
        ids.push_back(m.make_node(layer, kids.data()));
      } catch (const std::invalid_argument& e) {
        throw SetFileError(path + ": " + e.what());
      }
    }
  }
  std::uint32_t root = r.get<std::uint32_t>();
  if (root >= ids.size() || (ids[root] != kEmptyNode && m.layer_of(ids[root]) != 0))
    throw SetFileError(path + ": bad root index");
  if (r.pos + 8 != data.size()) throw SetFileError(path + ": trailing bytes after the set");
  return m.adopt(ids[root]);
}

}  // namespace zermelo::dfa
