// The linear evaluation, its shallow search and the least-squares fit of its weights (eval.hpp).
#include "zermelo/games/othello/eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>

#include "predict_search.hpp"
#include "zermelo/games/othello/solver.hpp"

namespace zermelo::othello {
namespace {

template <int N>
struct EvalGeometry {
  static constexpr Bits sq(int r, int c) { return bit(r * 8 + c); }
  // Corner k, its X square and its two C squares.
  static constexpr int kCornerR[4] = {0, 0, N - 1, N - 1};
  static constexpr int kCornerC[4] = {0, N - 1, 0, N - 1};
  static constexpr Bits corner(int k) { return sq(kCornerR[k], kCornerC[k]); }
  static constexpr int toward(int edge_coord) { return edge_coord == 0 ? 1 : -1; }
  static constexpr Bits x_square(int k) {
    return sq(kCornerR[k] + toward(kCornerR[k]), kCornerC[k] + toward(kCornerC[k]));
  }
  static constexpr Bits c_squares(int k) {
    return sq(kCornerR[k] + toward(kCornerR[k]), kCornerC[k]) |
           sq(kCornerR[k], kCornerC[k] + toward(kCornerC[k]));
  }
};

// Discs of b on an edge that run unbroken from a corner of b (they cannot be flipped along that
// edge): a cheap stand-in for stability.
template <int N>
int anchored_edge_discs(Bits b) {
  using G = EvalGeometry<N>;
  Bits anchored = 0;
  for (int k = 0; k < 4; ++k) {
    if (!(b & G::corner(k))) continue;
    anchored |= G::corner(k);
    const int r0 = G::kCornerR[k], c0 = G::kCornerC[k];
    const int dr = G::toward(r0), dc = G::toward(c0);
    for (int i = 1; i < N && (b & G::sq(r0 + i * dr, c0)); ++i) anchored |= G::sq(r0 + i * dr, c0);
    for (int i = 1; i < N && (b & G::sq(r0, c0 + i * dc)); ++i) anchored |= G::sq(r0, c0 + i * dc);
  }
  return popcount(anchored);
}

// Fitted by `zermelo othello fit-eval --size N --samples 4000` (seed 1; see docs/othello.md):
// random-play positions with 4..10 (4x4), 12..20 (6x6), 14..18 (8x8) empties, exact scores, least
// squares. Order: constant, discs, mobility, corners, X squares, C squares, potential mobility,
// anchored edge discs, parity. The 8x8 weights come from late positions only (nothing earlier can
// be solved exactly here), so they are a rough guide at 36-50 empties.
constexpr EvalWeights kWeights4 = {5.485,  1.364,  1.860,  5.313, -0.696,
                                   -0.776, -0.573, -0.240, 1.031};
constexpr EvalWeights kWeights6 = {3.750,  -0.495, 1.544, 5.268, -3.626,
                                   -3.454, -0.358, 2.363, 0.503};
constexpr EvalWeights kWeights8 = {3.728,  -0.411, 2.236, 4.087, -3.142,
                                   -3.807, -0.246, 1.883, 1.061};

double dot(const EvalWeights& w, const EvalFeatures& f) {
  double s = 0;
  for (int i = 0; i < kEvalFeatures; ++i)
    s += w[static_cast<std::size_t>(i)] * f[static_cast<std::size_t>(i)];
  return s;
}

// Solves the k×k system a·x = b in place by Gaussian elimination with partial pivoting.
EvalWeights solve_normal_equations(std::array<std::array<double, kEvalFeatures>, kEvalFeatures> a,
                                   EvalWeights b) {
  constexpr int k = kEvalFeatures;
  for (int c = 0; c < k; ++c) {
    int piv = c;
    for (int r = c + 1; r < k; ++r)
      if (std::abs(a[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)]) >
          std::abs(a[static_cast<std::size_t>(piv)][static_cast<std::size_t>(c)]))
        piv = r;
    std::swap(a[static_cast<std::size_t>(c)], a[static_cast<std::size_t>(piv)]);
    std::swap(b[static_cast<std::size_t>(c)], b[static_cast<std::size_t>(piv)]);
    const double d = a[static_cast<std::size_t>(c)][static_cast<std::size_t>(c)];
    if (std::abs(d) < 1e-12) continue;  // a feature that never varies: weight stays 0
    for (int r = 0; r < k; ++r) {
      if (r == c) continue;
      const double m = a[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] / d;
      if (m == 0) continue;
      for (int j = c; j < k; ++j)
        a[static_cast<std::size_t>(r)][static_cast<std::size_t>(j)] -=
            m * a[static_cast<std::size_t>(c)][static_cast<std::size_t>(j)];
      b[static_cast<std::size_t>(r)] -= m * b[static_cast<std::size_t>(c)];
    }
  }
  EvalWeights x{};
  for (int i = 0; i < k; ++i) {
    const double d = a[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)];
    x[static_cast<std::size_t>(i)] = std::abs(d) < 1e-12 ? 0.0 : b[static_cast<std::size_t>(i)] / d;
  }
  return x;
}

}  // namespace

const char* eval_feature_name(int i) {
  static const char* const kNames[kEvalFeatures] = {
      "constant",           "discs",          "mobility", "corners", "x_squares", "c_squares",
      "potential_mobility", "anchored_edges", "parity"};
  return i >= 0 && i < kEvalFeatures ? kNames[i] : "?";
}

template <int N>
EvalFeatures eval_features(Bits p, Bits o) {
  using G = EvalGeometry<N>;
  const Bits empty = ~(p | o) & Geometry<N>::kMask;
  EvalFeatures f{};
  f[0] = 1;
  f[1] = popcount(p) - popcount(o);
  f[2] = popcount(legal_moves<N>(p, o)) - popcount(legal_moves<N>(o, p));
  int corners = 0, xs = 0, cs = 0;
  for (int k = 0; k < 4; ++k) {
    const Bits c = G::corner(k);
    corners += ((p & c) != 0) - ((o & c) != 0);
    if (empty & c) {
      xs += ((p & G::x_square(k)) != 0) - ((o & G::x_square(k)) != 0);
      cs += popcount(p & G::c_squares(k)) - popcount(o & G::c_squares(k));
    }
  }
  f[3] = corners;
  f[4] = xs;
  f[5] = cs;
  f[6] = popcount(neighbours(o) & empty) - popcount(neighbours(p) & empty);
  f[7] = anchored_edge_discs<N>(p) - anchored_edge_discs<N>(o);
  f[8] = (popcount(empty) & 1) ? 1 : -1;
  return f;
}

template <int N>
const EvalWeights& default_weights() {
  if constexpr (N == 4)
    return kWeights4;
  else if constexpr (N == 6)
    return kWeights6;
  else
    return kWeights8;
}

template <int N>
int evaluate(Bits p, Bits o, const EvalWeights& w) {
  constexpr double kMax = 100.0 * N * N;
  return static_cast<int>(
      std::lround(std::clamp(100.0 * dot(w, eval_features<N>(p, o)), -kMax, kMax)));
}

template <int N>
int predict(Bits p, Bits o, int depth, const EvalWeights& w) {
  return detail::predict_search<N>(p, o, depth, -1000000, 1000000,
                                   [&w](Bits a, Bits b) { return evaluate<N>(a, b, w); });
}

template <int N>
EvalFit fit_evaluation(int samples, int min_empties, int max_empties, std::uint64_t seed) {
  if (samples < kEvalFeatures || min_empties < 0 || max_empties < min_empties ||
      max_empties > N * N - 4)
    throw std::invalid_argument(
        "othello fit-eval: need samples >= " + std::to_string(kEvalFeatures) +
        " and 0 <= min empties <= max empties <= " + std::to_string(N * N - 4));
  const auto t0 = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  EndgameSolver<N> solver(20);
  std::vector<std::pair<EvalFeatures, double>> data;
  data.reserve(static_cast<std::size_t>(samples));
  while (static_cast<int>(data.size()) < samples) {
    const int target =
        min_empties +
        static_cast<int>(rng() % static_cast<unsigned>(max_empties - min_empties + 1));
    Bits p = Geometry<N>::kStartBlack, o = Geometry<N>::kStartWhite;
    bool over = false;
    while (!over && Geometry<N>::kSquares - popcount(p | o) > target) {
      const Bits moves = legal_moves<N>(p, o);
      if (!moves) {
        if (!legal_moves<N>(o, p)) over = true;
        std::swap(p, o);
        continue;
      }
      play<N>(p, o,
              nth_square(moves, static_cast<int>(rng() % static_cast<unsigned>(popcount(moves)))));
    }
    if (over || !legal_moves<N>(p, o)) continue;  // keep positions where the mover has a move
    const SolveResult r = solver.solve(p, o, -N * N, N * N);
    data.emplace_back(eval_features<N>(p, o), r.score);
  }
  std::array<std::array<double, kEvalFeatures>, kEvalFeatures> ata{};
  EvalWeights atb{};
  for (const auto& [f, y] : data)
    for (std::size_t i = 0; i < kEvalFeatures; ++i) {
      atb[i] += f[i] * y;
      for (std::size_t j = 0; j < kEvalFeatures; ++j) ata[i][j] += f[i] * f[j];
    }
  for (std::size_t i = 0; i < kEvalFeatures; ++i)
    ata[i][i] += 1e-6 * static_cast<double>(data.size());  // ridge
  EvalFit fit;
  fit.weights = solve_normal_equations(ata, atb);
  fit.samples = static_cast<int>(data.size());
  double se = 0, se_default = 0;
  int agree = 0;
  for (const auto& [f, y] : data) {
    const double e = dot(fit.weights, f);
    se += (e - y) * (e - y);
    const double d = dot(default_weights<N>(), f);
    se_default += (d - y) * (d - y);
    const int e_sign = e > 1 ? 1 : e < -1 ? -1 : 0;
    const int y_sign = y > 0 ? 1 : y < 0 ? -1 : 0;
    agree += e_sign == y_sign;
  }
  fit.rms_error = std::sqrt(se / static_cast<double>(data.size()));
  fit.default_rms_error = std::sqrt(se_default / static_cast<double>(data.size()));
  fit.sign_agreement = static_cast<double>(agree) / static_cast<double>(data.size());
  fit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return fit;
}

#define ZERMELO_OTHELLO_INSTANTIATE(N)                          \
  template EvalFeatures eval_features<N>(Bits, Bits);           \
  template const EvalWeights& default_weights<N>();             \
  template int evaluate<N>(Bits, Bits, const EvalWeights&);     \
  template int predict<N>(Bits, Bits, int, const EvalWeights&); \
  template EvalFit fit_evaluation<N>(int, int, int, std::uint64_t);
ZERMELO_OTHELLO_INSTANTIATE(4)
ZERMELO_OTHELLO_INSTANTIATE(6)
ZERMELO_OTHELLO_INSTANTIATE(8)
#undef ZERMELO_OTHELLO_INSTANTIATE

}  // namespace zermelo::othello
