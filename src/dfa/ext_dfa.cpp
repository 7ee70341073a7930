// The external set format (include/zermelo/dfa/ext_dfa.hpp, docs/dfa.md "External sets"):
// writing, reading, checking, and the conversions from and to in-RAM sets.
#include "zermelo/dfa/ext_dfa.hpp"

#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <numeric>

namespace zermelo::dfa {
namespace {

constexpr const char* kLayerType = "zermelo.dfa_layer";
constexpr const char* kHeaderType = "zermelo.dfa_ext";
constexpr std::uint64_t kVersion = 1;

std::uint64_t set_digest(const ExtDfa& d) {
  std::vector<std::uint64_t> words{d.length()};
  words.insert(words.end(), d.alphabet.begin(), d.alphabet.end());
  words.insert(words.end(), d.states.begin(), d.states.end());
  words.insert(words.end(), d.layer_digests.begin(), d.layer_digests.end());
  return XXH3_64bits(words.data(), words.size() * sizeof(std::uint64_t));
}

RunOptions layer_options(unsigned alphabet) {
  RunOptions o;
  o.record_size = alphabet * sizeof(std::uint32_t);
  o.record_type = kLayerType;
  o.sort_key = "children asc";
  o.block_bytes = 1u << 20;
  return o;
}

// The next layer's bound on a child index: its state count, or 1 (accept) below the last layer.
std::uint64_t child_bound(const ExtDfa& d, unsigned layer) {
  return layer + 1 == d.length() ? 1 : d.states[layer + 1];
}

ExtDfaError bad(const std::string& where, const std::string& what) {
  return ExtDfaError(where + ": " + what);
}

}  // namespace

std::uint64_t ExtDfa::total_states() const {
  if (empty()) return 0;
  return std::accumulate(states.begin(), states.end(), std::uint64_t{1});
}

std::string ExtDfa::layer_path(unsigned layer) const {
  return dir + "/layer-" + std::to_string(layer) + ".run";
}

std::string ExtDfa::header_path() const { return dir + "/set.run"; }

// ---- Writer

struct ExtDfaWriter::Impl {
  ExtDfa d;
  std::unique_ptr<RunWriter> out;
  unsigned layer = 0;
  XXH3_state_t* hash = XXH3_createState();
  std::vector<bool> written;
  bool durable = true;
  ~Impl() { XXH3_freeState(hash); }
};

ExtDfaWriter::ExtDfaWriter(std::string dir, std::vector<unsigned> alphabet, bool durable)
    : impl_(std::make_unique<Impl>()) {
  impl_->durable = durable;
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir + "/set.run");  // a rewritten set is incomplete until finished
  const std::size_t L = alphabet.size();
  impl_->d.dir = std::move(dir);
  impl_->d.alphabet = std::move(alphabet);
  impl_->d.states.assign(L, 0);
  impl_->d.layer_digests.assign(L, 0);
  impl_->written.assign(L, false);
}

ExtDfaWriter::~ExtDfaWriter() = default;

void ExtDfaWriter::begin_layer(unsigned layer) {
  Impl& w = *impl_;
  if (w.out || layer >= w.d.length() || w.written[layer])
    throw std::logic_error("ExtDfaWriter: layer begun twice or out of order");
  w.layer = layer;
  RunOptions o = layer_options(w.d.alphabet[layer]);
  o.durable = w.durable;
  w.out = std::make_unique<RunWriter>(w.d.layer_path(layer), o);
  XXH3_64bits_reset(w.hash);
}

void ExtDfaWriter::push(const std::uint32_t* children) {
  Impl& w = *impl_;
  const std::size_t bytes = w.d.alphabet[w.layer] * sizeof(std::uint32_t);
  w.out->append(children);
  XXH3_64bits_update(w.hash, children, bytes);
  ++w.d.states[w.layer];
}

void ExtDfaWriter::end_layer() {
  Impl& w = *impl_;
  w.out->finish();
  w.out.reset();
  w.d.layer_digests[w.layer] = XXH3_64bits_digest(w.hash);
  w.written[w.layer] = true;
}

ExtDfa ExtDfaWriter::finish() {
  Impl& w = *impl_;
  if (std::find(w.written.begin(), w.written.end(), false) != w.written.end())
    throw std::logic_error("ExtDfaWriter: a layer was not written");
  w.d.digest = set_digest(w.d);
  RunOptions o;
  o.record_size = sizeof(std::uint64_t);
  o.record_type = kHeaderType;
  o.durable = w.durable;
  RunWriter out(w.d.header_path(), o);
  out.push(kVersion);
  out.push<std::uint64_t>(w.d.length());
  for (unsigned a : w.d.alphabet) out.push<std::uint64_t>(a);
  for (auto s : w.d.states) out.push(s);
  for (auto h : w.d.layer_digests) out.push(h);
  out.push(w.d.digest);
  out.finish();
  return w.d;
}

// ---- Reading

ExtDfa open_ext(const std::string& dir) {
  ExtDfa d;
  d.dir = dir;
  const std::string path = d.header_path();
  std::vector<std::uint64_t> words;
  try {
    RunReader r(path);
    if (r.info().options.record_type != kHeaderType || r.record_size() != 8)
      throw bad(path, "not an external DFA set header");
    for (std::uint64_t w; r.next(w);) words.push_back(w);
  } catch (const ExtDfaError&) {
    throw;
  } catch (const RunFileError& e) {
    throw ExtDfaError(std::string("cannot read external DFA set: ") + e.what());
  }
  if (words.size() < 2 || words[0] != kVersion) throw bad(path, "unsupported header version");
  const std::uint64_t L = words[1];
  if (L == 0 || L > 4096 || words.size() != 3 + 3 * L) throw bad(path, "malformed header");
  auto at = words.begin() + 2;
  for (std::uint64_t i = 0; i < L; ++i) d.alphabet.push_back(static_cast<unsigned>(*at++));
  d.states.assign(at, at + static_cast<std::ptrdiff_t>(L));
  d.layer_digests.assign(at + static_cast<std::ptrdiff_t>(L),
                         at + static_cast<std::ptrdiff_t>(2 * L));
  d.digest = words.back();
  if (d.states[0] > 1) throw bad(path, "more than one root");
  if (set_digest(d) != d.digest) throw bad(path, "header digest mismatch");
  for (unsigned i = 0; i < L; ++i) {
    RunInfo info;
    try {
      info = inspect_run(d.layer_path(i));
    } catch (const RunFileError& e) {
      throw ExtDfaError(std::string("external DFA set layer missing or damaged: ") + e.what());
    }
    if (info.options.record_type != kLayerType ||
        info.options.record_size != d.alphabet[i] * sizeof(std::uint32_t) ||
        info.record_count != d.states[i])
      throw bad(d.layer_path(i), "layer does not match its set header");
  }
  return d;
}

struct ExtLayerReader::Impl {
  const ExtDfa* d = nullptr;
  unsigned layer = 0;
  std::uint64_t bound = 0, read = 0;
  std::unique_ptr<RunReader> run;
  XXH3_state_t* hash = XXH3_createState();
  ~Impl() { XXH3_freeState(hash); }
};

ExtLayerReader::ExtLayerReader(const ExtDfa& set, unsigned layer)
    : impl_(std::make_unique<Impl>()) {
  impl_->d = &set;
  impl_->layer = layer;
  impl_->bound = child_bound(set, layer);
  try {
    impl_->run = std::make_unique<RunReader>(set.layer_path(layer));
  } catch (const RunFileError& e) {
    throw ExtDfaError(std::string("cannot read external DFA layer: ") + e.what());
  }
  XXH3_64bits_reset(impl_->hash);
}

ExtLayerReader::~ExtLayerReader() = default;

std::uint64_t ExtLayerReader::index() const { return impl_->read; }

bool ExtLayerReader::next(std::uint32_t* children) {
  Impl& r = *impl_;
  const unsigned arity = r.d->alphabet[r.layer];
  const std::string& path = r.d->layer_path(r.layer);
  bool got = false;
  try {
    got = r.run->next(static_cast<void*>(children));
  } catch (const RunFileError& e) {
    throw ExtDfaError(std::string("corrupt external DFA layer: ") + e.what());
  }
  if (!got) {
    if (r.read != r.d->states[r.layer]) throw bad(path, "layer ends early");
    if (XXH3_64bits_digest(r.hash) != r.d->layer_digests[r.layer])
      throw bad(path, "layer digest differs from the set header's");
    return false;
  }
  for (unsigned c = 0; c < arity; ++c)
    if (children[c] > r.bound) throw bad(path, "a state refers past the next layer");
  XXH3_64bits_update(r.hash, children, arity * sizeof(std::uint32_t));
  ++r.read;
  return true;
}

void verify_ext(const ExtDfa& set) {
  std::vector<std::uint32_t> kids(*std::max_element(set.alphabet.begin(), set.alphabet.end()));
  for (unsigned i = 0; i < set.length(); ++i) {
    ExtLayerReader r(set, i);
    while (r.next(kids.data())) {
    }
  }
}

void remove_ext(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

// ---- Conversions

namespace {

// The set's states grouped by layer (as save_set groups them).
std::vector<std::vector<NodeId>> states_by_layer(const Set& set) {
  const Manager& m = *set.manager();
  std::vector<std::vector<NodeId>> by_layer(m.length());
  if (set.root() <= kAcceptNode) return by_layer;
  std::vector<bool> seen(m.table_slots(), false);
  std::vector<NodeId> stack{set.root()};
  seen[set.root()] = true;
  while (!stack.empty()) {
    const NodeId n = stack.back();
    stack.pop_back();
    by_layer[m.layer_of(n)].push_back(n);
    for (unsigned c = 0; c < m.alphabet(m.layer_of(n)); ++c) {
      const NodeId k = m.child(n, c);
      if (k > kAcceptNode && !seen[k]) seen[k] = true, stack.push_back(k);
    }
  }
  return by_layer;
}

// Canonical numbers of one layer's states, given the next layer's (`below`, sorted by node id):
// the states sorted by their children's numbers. Writes the layer; returns its (id, number)
// pairs sorted by id.
using Numbering = std::vector<std::pair<NodeId, std::uint32_t>>;
template <class Out>  // ExtDfaWriter, or LayerDigests: begin_layer, push, end_layer
Numbering number_layer(const Manager& m, unsigned layer, const std::vector<NodeId>& states,
                       const Numbering& below, Out& out) {
  const unsigned arity = m.alphabet(layer);
  auto number_of = [&](NodeId k) -> std::uint32_t {
    if (k == kEmptyNode || k == kAcceptNode) return k;
    auto it = std::lower_bound(below.begin(), below.end(), std::make_pair(k, std::uint32_t{0}));
    return it->second;
  };
  std::vector<std::uint32_t> kids(states.size() * arity);
  for (std::size_t j = 0; j < states.size(); ++j)
    for (unsigned c = 0; c < arity; ++c) kids[j * arity + c] = number_of(m.child(states[j], c));
  std::vector<std::size_t> order(states.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::lexicographical_compare(&kids[x * arity], &kids[x * arity + arity],
                                        &kids[y * arity], &kids[y * arity + arity]);
  });
  Numbering mine;
  out.begin_layer(layer);
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    out.push(&kids[order[rank] * arity]);
    mine.emplace_back(states[order[rank]], static_cast<std::uint32_t>(rank + 1));
  }
  out.end_layer();
  std::sort(mine.begin(), mine.end());
  return mine;
}

// What an ExtDfaWriter records of the layers it is given (their sizes and digests), without
// their files: the canonical digest of an in-RAM set costs no disk.
class LayerDigests {
 public:
  explicit LayerDigests(std::vector<unsigned> alphabet) {
    d_.alphabet = std::move(alphabet);
    d_.states.assign(d_.length(), 0);
    d_.layer_digests.assign(d_.length(), 0);
  }
  ~LayerDigests() { XXH3_freeState(hash_); }
  LayerDigests(const LayerDigests&) = delete;
  LayerDigests& operator=(const LayerDigests&) = delete;
  void begin_layer(unsigned layer) {
    layer_ = layer;
    XXH3_64bits_reset(hash_);
  }
  void push(const std::uint32_t* children) {
    XXH3_64bits_update(hash_, children, d_.alphabet[layer_] * sizeof(std::uint32_t));
    ++d_.states[layer_];
  }
  void end_layer() { d_.layer_digests[layer_] = XXH3_64bits_digest(hash_); }
  std::uint64_t digest() const { return set_digest(d_); }

 private:
  ExtDfa d_;
  unsigned layer_ = 0;
  XXH3_state_t* hash_ = XXH3_createState();
};

std::vector<unsigned> alphabet_of(const Manager& m) {
  std::vector<unsigned> alphabet(m.length());
  for (unsigned i = 0; i < m.length(); ++i) alphabet[i] = m.alphabet(i);
  return alphabet;
}

// Numbers the set's layers from the last up into `out`, as save_ext writes them.
template <class Out>
void number_layers(const Set& set, Out& out) {
  const Manager& m = *set.manager();
  const auto by_layer = states_by_layer(set);
  Numbering below;
  for (unsigned layer = m.length(); layer-- > 0;)
    below = number_layer(m, layer, by_layer[layer], below, out);
}

}  // namespace

std::uint64_t canonical_digest(const Set& set) {
  LayerDigests out(alphabet_of(*set.manager()));
  number_layers(set, out);
  return out.digest();
}

ExtDfa save_ext(const Set& set, const std::string& dir, bool durable) {
  ExtDfaWriter out(dir, alphabet_of(*set.manager()), durable);
  number_layers(set, out);
  return out.finish();
}

Set load_ext(Manager& m, const ExtDfa& set) {
  if (set.length() != m.length()) throw bad(set.dir, "external set of strings of another length");
  for (unsigned i = 0; i < set.length(); ++i)
    if (set.alphabet[i] != m.alphabet(i))
      throw bad(set.dir, "alphabet of position " + std::to_string(i) + " differs");
  std::vector<NodeId> below{kEmptyNode, kAcceptNode}, here;
  std::vector<std::uint32_t> kids(m.arity());
  std::vector<NodeId> ids(m.arity(), kEmptyNode);
  for (unsigned layer = set.length(); layer-- > 0;) {
    here.assign(1, kEmptyNode);
    ExtLayerReader r(set, layer);
    while (r.next(kids.data())) {
      for (unsigned c = 0; c < set.alphabet[layer]; ++c) ids[c] = below[kids[c]];
      here.push_back(m.make_node(layer, ids.data()));
    }
    below.swap(here);
  }
  return m.adopt(below.size() > 1 ? below[1] : kEmptyNode);
}

}  // namespace zermelo::dfa
