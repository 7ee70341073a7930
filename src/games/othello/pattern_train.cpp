// Self-play positions, exact labels and the least-squares fit of the pattern weights
// (pattern_train.hpp).
#include "zermelo/games/othello/pattern_train.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <thread>

#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/pattern_labels.hpp"
#include "zermelo/games/othello/solver.hpp"

namespace zermelo::othello::patterns {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// rng() % n: the same on every platform (mt19937_64 is specified bit for bit; the standard's
// distributions are not).
int pick(std::mt19937_64& rng, int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }

// One self-play game: a random opening of 2..21 plies, then the linear evaluation's 2-ply choice,
// one move in 8 random. Returns the positions with empties in range whose mover has a move, one
// in `keep_one_in` of them drawn at random (consecutive positions of a game are alike: fewer a
// game, from more games, for the same solves).
void play_game(std::mt19937_64& rng, int min_empties, int max_empties, int keep_one_in,
               std::vector<LabelledPosition>& out) {
  Bits p = Geometry<8>::kStartBlack, o = Geometry<8>::kStartWhite;
  const int opening = 2 + pick(rng, 20);
  for (int ply = 0;; ++ply) {
    const Bits moves = legal_moves<8>(p, o);
    if (!moves) {
      if (!legal_moves<8>(o, p)) return;
      std::swap(p, o);
      continue;
    }
    const int empties = 64 - popcount(p | o);
    if (empties <= max_empties && empties >= min_empties &&
        (keep_one_in == 1 || pick(rng, keep_one_in) == 0))
      out.push_back({p, o, 0});
    int sq;
    if (ply < opening || pick(rng, 8) == 0) {
      sq = nth_square(moves, pick(rng, popcount(moves)));
    } else {
      int best = -1 << 30;
      sq = -1;
      for (Bits m = moves; m; m &= m - 1) {
        const int s = std::countr_zero(m);
        const Bits f = flips<8>(p, o, s);
        const int v = -predict<8>(o & ~f, p | f | bit(s), 1);
        if (v > best) best = v, sq = s;
      }
    }
    play<8>(p, o, sq);
  }
}

// Solves every position exactly, `threads` workers taking games in turn (a game's positions share
// one solver's table); the scores do not depend on who solves what.
void label(std::vector<LabelledPosition>& positions, const std::vector<std::size_t>& game_start,
           unsigned threads) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    // The compiled-in weights only order the moves (faster solves); the scores are exact.
    EndgameSolver<8> solver(21, Ordering::kPatterns);
    for (;;) {
      const std::size_t g = next.fetch_add(1);
      if (g + 1 >= game_start.size()) return;
      for (std::size_t i = game_start[g]; i < game_start[g + 1]; ++i)
        positions[i].score = solver.solve(positions[i].p, positions[i].o, -64, 64).score;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// The weight of every feature of one phase, an index into the phase's weights with tied pattern
// indices mapped to their representative.
std::vector<std::uint32_t> tied_map() {
  const Layout& l = layout();
  std::vector<std::uint32_t> map(static_cast<std::size_t>(l.per_phase));
  for (std::size_t i = 0; i < map.size(); ++i) map[i] = static_cast<std::uint32_t>(i);
  for (int j = 0; j < kPatternCount; ++j) {
    const auto& tied = tables().tied[static_cast<std::size_t>(j)];
    const auto off = static_cast<std::size_t>(l.offset[static_cast<std::size_t>(j)]);
    for (std::size_t idx = 0; idx < tied.size(); ++idx)
      map[off + idx] = static_cast<std::uint32_t>(off) + tied[idx];
  }
  return map;
}

// Ridge least squares by preconditioned conjugate gradients on the normal equations:
// (XᵀX + λI) θ = Xᵀy, X a 0/1 (or small count) matrix given as `width` feature ids a row.
std::vector<double> fit_phase(const std::vector<std::uint32_t>& feats, int width,
                              const std::vector<double>& y, std::size_t params, double ridge) {
  const std::size_t rows = y.size(), w = static_cast<std::size_t>(width);
  std::vector<double> theta(params, 0.0), diag(params, ridge);
  for (std::uint32_t f : feats) diag[f] += 1.0;
  const auto apply = [&](const std::vector<double>& v, std::vector<double>& out) {
    for (std::size_t j = 0; j < params; ++j) out[j] = ridge * v[j];
    for (std::size_t i = 0; i < rows; ++i) {
      double s = 0;
      for (std::size_t k = 0; k < w; ++k) s += v[feats[i * w + k]];
      for (std::size_t k = 0; k < w; ++k) out[feats[i * w + k]] += s;
    }
  };
  std::vector<double> r(params, 0.0), z(params), d(params), q(params);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < w; ++k) r[feats[i * w + k]] += y[i];
  for (std::size_t j = 0; j < params; ++j) d[j] = z[j] = r[j] / diag[j];
  double rz = 0;
  for (std::size_t j = 0; j < params; ++j) rz += r[j] * z[j];
  for (int it = 0; it < kFitIterations && rz > 1e-12; ++it) {
    apply(d, q);
    double dq = 0;
    for (std::size_t j = 0; j < params; ++j) dq += d[j] * q[j];
    const double a = rz / dq;
    for (std::size_t j = 0; j < params; ++j) {
      theta[j] += a * d[j];
      r[j] -= a * q[j];
      z[j] = r[j] / diag[j];
    }
    double rz_new = 0;
    for (std::size_t j = 0; j < params; ++j) rz_new += r[j] * z[j];
    const double b = rz_new / rz;
    rz = rz_new;
    for (std::size_t j = 0; j < params; ++j) d[j] = z[j] + b * d[j];
  }
  return theta;
}

}  // namespace

std::vector<LabelledPosition> labelled_positions(std::uint64_t seed, int count, int min_empties,
                                                 int max_empties, unsigned threads,
                                                 int keep_one_in) {
  if (count < 1 || min_empties < 0 || max_empties < min_empties || max_empties > 59 ||
      keep_one_in < 1)
    throw std::invalid_argument(
        "othello train: need positions >= 1, 0 <= min empties <= max empties <= 59, keep >= 1");
  std::mt19937_64 rng(seed);
  std::vector<LabelledPosition> positions;
  std::vector<std::size_t> game_start{0};
  while (positions.size() < static_cast<std::size_t>(count)) {
    play_game(rng, min_empties, max_empties, keep_one_in, positions);
    positions.resize(std::min(positions.size(), static_cast<std::size_t>(count)));
    if (positions.size() > game_start.back()) game_start.push_back(positions.size());
  }
  label(positions, game_start, threads);
  return positions;
}

TrainResult fit_patterns(const std::vector<LabelledPosition>& data, int phases, int phase_width,
                         double ridge, const PatternWeights* prior) {
  if (phases < 1 || phase_width < 1 || phases * phase_width > 64)
    throw std::invalid_argument(
        "othello train: need 1 <= phases, 1 <= width, phases * width <= 64");
  const auto t0 = Clock::now();
  const Layout& l = layout();
  const std::vector<std::uint32_t> map = tied_map();
  const int width = static_cast<int>(tables().instances.size()) + 3;
  TrainResult r;
  r.positions = static_cast<int>(data.size());
  r.weights.phases = phases;
  r.weights.phase_width = phase_width;
  r.weights.weights.assign(static_cast<std::size_t>(phases) * static_cast<std::size_t>(l.per_phase),
                           0);
  for (int k = 0; k < phases; ++k) {
    const int lo = k * phase_width - kPhaseOverlap;
    const int hi = k == phases - 1 ? 64 : k * phase_width + phase_width - 1 + kPhaseOverlap;
    // With a prior, the fit is of the change from its weights (the prior's phase at this phase's
    // first empties): the ridge then pulls toward them instead of toward zero.
    const std::int16_t* base = prior ? prior->phase(k * phase_width) : nullptr;
    std::vector<std::uint32_t> feats;
    std::vector<double> y;
    for (const LabelledPosition& s : data) {
      const int e = 64 - popcount(s.p | s.o);
      if (e < lo || e > hi) continue;
      int prior_value = 0;
      for_each_feature(s.p, s.o, legal_moves<8>(s.p, s.o), legal_moves<8>(s.o, s.p), [&](int f) {
        feats.push_back(map[static_cast<std::size_t>(f)]);
        if (base) prior_value += base[f];
      });
      y.push_back(s.score - prior_value / double{kUnitsPerDisc});
    }
    const std::vector<double> theta =
        fit_phase(feats, width, y, static_cast<std::size_t>(l.per_phase), ridge);
    std::int16_t* w = r.weights.weights.data() +
                      static_cast<std::size_t>(k) * static_cast<std::size_t>(l.per_phase);
    for (std::size_t i = 0; i < map.size(); ++i)
      w[i] = static_cast<std::int16_t>(std::clamp(
          std::lround(theta[map[i]] * kUnitsPerDisc) + (base ? base[i] : 0), -32767L, 32767L));
    double err = 0;
    int n = 0;
    for (const LabelledPosition& s : data) {
      const int e = 64 - popcount(s.p | s.o);
      if (r.weights.phase_of(e) != k) continue;
      err += std::abs(r.weights.evaluate(s.p, s.o) / double{kUnitsPerDisc} - s.score);
      ++n;
    }
    r.fit_mae.push_back(n ? err / n : 0.0);
  }
  r.fit_seconds = seconds_since(t0);
  return r;
}

TrainResult train_patterns(const TrainOptions& o) {
  const auto t0 = Clock::now();
  const std::vector<LabelledPosition> data = chunked_labels(
      o.labels_file, {o.seed, o.positions, o.min_empties, o.max_empties, o.keep_one_in},
      o.chunk_positions, o.threads);
  const double label_seconds = seconds_since(t0);
  const PatternWeights prior =
      o.prior_file.empty() ? PatternWeights{} : read_weights_file(o.prior_file);
  TrainResult r =
      fit_patterns(data, o.phases, o.phase_width, o.ridge, o.prior_file.empty() ? nullptr : &prior);
  r.label_seconds = label_seconds;
  return r;
}

Accuracy measure_accuracy(const PatternWeights& w, const LabelSet& set, unsigned threads,
                          const std::string& labels_file) {
  const auto t0 = Clock::now();
  const std::vector<LabelledPosition> data = cached_labels(labels_file, set, threads);
  const int min_empties = set.min_empties, max_empties = set.max_empties;
  Accuracy a;
  a.all.empties = -1;
  for (int e = min_empties; e <= max_empties; ++e) a.rows.push_back({e, 0, 0, 0});
  for (const LabelledPosition& s : data) {
    const double pat = std::abs(w.evaluate(s.p, s.o) / double{kUnitsPerDisc} - s.score);
    const double lin = std::abs(evaluate<8>(s.p, s.o) / 100.0 - s.score);
    for (AccuracyRow* row :
         {&a.rows[static_cast<std::size_t>(64 - popcount(s.p | s.o) - min_empties)], &a.all}) {
      row->positions += 1;
      row->pattern_mae += pat;
      row->linear_mae += lin;
    }
  }
  const auto mean = [](AccuracyRow& x) {
    if (x.positions) x.pattern_mae /= x.positions, x.linear_mae /= x.positions;
  };
  for (AccuracyRow& x : a.rows) mean(x);
  mean(a.all);
  a.seconds = seconds_since(t0);
  return a;
}

}  // namespace zermelo::othello::patterns
