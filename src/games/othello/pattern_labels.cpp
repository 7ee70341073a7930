// Reading and writing the labelled positions' cache file (pattern_labels.hpp).
#include "zermelo/games/othello/pattern_labels.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace zermelo::othello::patterns {
namespace {

constexpr const char* kLabelsMagic = "zermelo-othello-labels";
constexpr int kLabelsVersion = 1;

std::string header(const LabelSet& s) {
  std::ostringstream os;
  os << kLabelsMagic << ' ' << kLabelsVersion << ' ' << s.seed << ' ' << s.count << ' '
     << s.min_empties << ' ' << s.max_empties << ' ' << s.keep_one_in;
  return os.str();
}

std::vector<LabelledPosition> read_labels(const std::string& path, const LabelSet& set) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line != header(set))
    throw std::runtime_error("othello labels " + path + ": made for other options (\"" + line +
                             "\", these are \"" + header(set) + "\")");
  std::vector<LabelledPosition> out;
  out.reserve(static_cast<std::size_t>(set.count));
  LabelledPosition x;
  while (in >> std::hex >> x.p >> x.o >> std::dec >> x.score) out.push_back(x);
  if (out.size() != static_cast<std::size_t>(set.count))
    throw std::runtime_error("othello labels " + path + ": " + std::to_string(out.size()) +
                             " positions, the header says " + std::to_string(set.count));
  return out;
}

void write_labels(const std::string& path, const LabelSet& set,
                  const std::vector<LabelledPosition>& positions) {
  const std::string tmp = path + ".part";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << header(set) << '\n';
    for (const LabelledPosition& x : positions)
      out << std::hex << x.p << ' ' << x.o << ' ' << std::dec << x.score << '\n';
    if (!out) throw std::runtime_error("othello labels: cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);  // a stopped run leaves no half file under the name
}

}  // namespace

std::vector<LabelledPosition> cached_labels(const std::string& path, const LabelSet& set,
                                            unsigned threads) {
  if (!path.empty() && std::filesystem::exists(path)) return read_labels(path, set);
  std::vector<LabelledPosition> positions = labelled_positions(
      set.seed, set.count, set.min_empties, set.max_empties, threads, set.keep_one_in);
  if (!path.empty()) write_labels(path, set, positions);
  return positions;
}

std::vector<LabelledPosition> chunked_labels(const std::string& dir, const LabelSet& set,
                                             int chunk_positions, unsigned threads) {
  if (!dir.empty()) std::filesystem::create_directories(dir);
  const int size = chunk_positions > 0 ? chunk_positions : set.count;
  std::vector<LabelledPosition> all;
  for (int c = 0; c * size < set.count; ++c) {
    LabelSet chunk = set;
    chunk.seed = set.seed + static_cast<std::uint64_t>(c) * kChunkSeedStep;
    chunk.count = std::min(size, set.count - c * size);
    std::ostringstream name;
    name << "labels-" << std::hex << chunk.seed << std::dec << '-' << chunk.count << '-'
         << chunk.min_empties << '-' << chunk.max_empties << '-' << chunk.keep_one_in << ".txt";
    const auto part = cached_labels(
        dir.empty() ? "" : (std::filesystem::path(dir) / name.str()).string(), chunk, threads);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

}  // namespace zermelo::othello::patterns
