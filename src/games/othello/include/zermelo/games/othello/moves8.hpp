// Legal moves and flips specialised for the 8×8 board, the endgame solver's hottest kernels.
//
// Why a file of its own: the generic generator of bitboard.hpp grows each ray one disc at a time
// (N-2 steps); on 8×8 a run of opponent discs is found in four steps by doubling the shift
// (Kogge-Stone), and with AVX2 the four axes run side by side in one vector. Flips likewise take
// the eight rays of a square four at a time, without the branch per ray that the generic code
// mispredicts. bitboard.hpp sends legal_moves<8> and flips<8> here; the generic code stays the
// rules' plain statement for 4×4 and 6×6 (and the fallback without AVX2).
#pragma once
#include <array>
#include <cstdint>
#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace zermelo::othello::moves8 {

// Opponent discs a run may pass through when it moves sideways: not on the A or H file.
constexpr std::uint64_t kInner = 0x7e7e7e7e7e7e7e7eULL;

// Squares reached from p by a run of o in direction +s (left shift) and -s (right shift).
inline std::uint64_t axis(std::uint64_t p, std::uint64_t m, int s) {
  std::uint64_t fl = m & (p << s), fr = m & (p >> s);
  fl |= m & (fl << s);
  fr |= m & (fr >> s);
  const std::uint64_t pl = m & (m << s), pr = pl >> s;  // runs of two opponent discs
  fl |= pl & (fl << 2 * s);
  fr |= pr & (fr >> 2 * s);
  fl |= pl & (fl << 2 * s);
  fr |= pr & (fr >> 2 * s);
  return (fl << s) | (fr >> s);
}

inline std::uint64_t legal_moves_scalar(std::uint64_t p, std::uint64_t o) {
  const std::uint64_t oi = o & kInner;
  const std::uint64_t m = axis(p, oi, 1) | axis(p, o, 8) | axis(p, oi, 7) | axis(p, oi, 9);
  return m & ~(p | o);
}

#ifdef __AVX2__
// The same four axes, one in each 64-bit lane.
inline std::uint64_t legal_moves_avx2(std::uint64_t p, std::uint64_t o) {
  const __m256i s1 = _mm256_set_epi64x(9, 7, 8, 1), s2 = _mm256_add_epi64(s1, s1);
  const std::uint64_t oi = o & kInner;
  const __m256i pp = _mm256_set1_epi64x(static_cast<long long>(p));
  const __m256i m = _mm256_set_epi64x(static_cast<long long>(oi), static_cast<long long>(oi),
                                      static_cast<long long>(o), static_cast<long long>(oi));
  __m256i fl = _mm256_and_si256(m, _mm256_sllv_epi64(pp, s1));
  __m256i fr = _mm256_and_si256(m, _mm256_srlv_epi64(pp, s1));
  fl = _mm256_or_si256(fl, _mm256_and_si256(m, _mm256_sllv_epi64(fl, s1)));
  fr = _mm256_or_si256(fr, _mm256_and_si256(m, _mm256_srlv_epi64(fr, s1)));
  const __m256i pl = _mm256_and_si256(m, _mm256_sllv_epi64(m, s1));
  const __m256i pr = _mm256_srlv_epi64(pl, s1);
  for (int i = 0; i < 2; ++i) {
    fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, s2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, s2)));
  }
  const __m256i mv = _mm256_or_si256(_mm256_sllv_epi64(fl, s1), _mm256_srlv_epi64(fr, s1));
  const __m128i h = _mm_or_si128(_mm256_castsi256_si128(mv), _mm256_extracti128_si256(mv, 1));
  const std::uint64_t r = static_cast<std::uint64_t>(_mm_cvtsi128_si64(h)) |
                          static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
  return r & ~(p | o);
}
#endif

inline std::uint64_t legal_moves(std::uint64_t p, std::uint64_t o) {
#ifdef __AVX2__
  return legal_moves_avx2(p, o);
#else
  return legal_moves_scalar(p, o);
#endif
}

#ifdef __AVX2__
// The rays of each square: directions growing toward higher bits (E, S, SE, SW) first, then the
// four growing toward lower bits (W, N, NE, NW); the square itself excluded.
struct alignas(32) SquareRays {
  std::uint64_t up[4], down[4];
};
constexpr std::array<SquareRays, 64> make_rays() {
  std::array<SquareRays, 64> t{};
  const int dr[8] = {0, 1, 1, 1, 0, -1, -1, -1}, dc[8] = {1, 0, 1, -1, -1, 0, 1, -1};
  for (int sq = 0; sq < 64; ++sq)
    for (int d = 0; d < 8; ++d) {
      std::uint64_t ray = 0;
      for (int r = sq / 8 + dr[d], c = sq % 8 + dc[d]; r >= 0 && r < 8 && c >= 0 && c < 8;
           r += dr[d], c += dc[d])
        ray |= std::uint64_t{1} << (r * 8 + c);
      (d < 4 ? t[sq].up[d] : t[sq].down[d - 4]) = ray;
    }
  return t;
}
inline constexpr std::array<SquareRays, 64> kRays = make_rays();

// Along each ray the nearest square that is not an opponent disc must hold one of p's discs; the
// opponent discs before it flip. Upward rays: that square is the lowest bit of the stop set;
// downward rays: the highest, found by smearing the stop set toward lower bits.
inline std::uint64_t flips(std::uint64_t p, std::uint64_t o, int sq) {
  const __m256i vp = _mm256_set1_epi64x(static_cast<long long>(p));
  const __m256i vo = _mm256_set1_epi64x(static_cast<long long>(o));
  const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
  const __m256i up = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRays[sq].up));
  const __m256i down = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRays[sq].down));
  // Upward: first = lowest stop bit; flipped = ray below it, if it is ours.
  const __m256i su = _mm256_andnot_si256(vo, up);
  const __m256i fu = _mm256_and_si256(su, _mm256_sub_epi64(zero, su));
  const __m256i oku = _mm256_cmpeq_epi64(_mm256_and_si256(fu, vp), zero);
  __m256i f = _mm256_andnot_si256(oku, _mm256_and_si256(up, _mm256_add_epi64(fu, ones)));
  // Downward: below = every ray square at or below the highest stop bit, smeared along each
  // lane's own direction (W 1, N 8, NE 7, NW 9): a ray has at most 7 squares, so three steps of
  // 1, 2 and 4 squares reach them all (six steps of 1-32 bits before: 1.7 % more instructions).
  const __m256i step = _mm256_set_epi64x(9, 7, 8, 1);
  const __m256i sd = _mm256_andnot_si256(vo, down);
  __m256i below = _mm256_or_si256(sd, _mm256_srlv_epi64(sd, step));
  below = _mm256_or_si256(below, _mm256_srlv_epi64(below, _mm256_add_epi64(step, step)));
  below = _mm256_or_si256(below, _mm256_srlv_epi64(below, _mm256_slli_epi64(step, 2)));
  const __m256i fd = _mm256_andnot_si256(_mm256_srlv_epi64(below, step), below);  // highest stop
  const __m256i okd = _mm256_cmpeq_epi64(_mm256_and_si256(fd, vp), zero);
  f = _mm256_or_si256(f, _mm256_andnot_si256(okd, _mm256_andnot_si256(below, down)));
  const __m128i h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(h)) |
         static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
}
#endif

}  // namespace zermelo::othello::moves8
