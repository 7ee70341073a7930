// LSD radix sort for the fixed-size records of the passes.
//
// Why: sorting messages is most of a retrograde level's CPU time (a profile of the Ostle 4v4
// solve put std::sort at a third of all cycles), and the records are small structs ordered
// lexicographically by unsigned integer fields, which radix sorting handles in a few linear
// passes. A record type opts in by specialising RadixLayout with its fields, most significant
// first, in exactly the order its operator< compares them; a sort by another comparator opts in
// when the comparator says it compares exactly those fields (kOrdersByRadixLayout, below), as the
// DFA passes' records do. One counting pass builds the
// histograms of every byte at once; bytes that are equal in every record (the high bytes of keys
// with few bits, a message value shared by a whole level) cost nothing. The sort is stable and
// orders by the whole listed key, so with every field listed, equal keys are equal records and the
// output is the same as std::sort's.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace zermelo {

struct RadixField {
  std::uint32_t offset;  // byte offset of an unsigned little-endian field in the record
  std::uint32_t bytes;
};

// Specialise with `static constexpr std::array<RadixField, N> fields` (most significant first).
template <class T>
struct RadixLayout;

template <>
struct RadixLayout<std::uint64_t> {
  static constexpr std::array<RadixField, 1> fields{RadixField{0, 8}};
};

// The key bytes a layout lists: at most 32 digits (the histograms are made for 32).
template <class T>
constexpr std::size_t radix_key_bytes() {
  std::size_t n = 0;
  for (const RadixField& f : RadixLayout<T>::fields) n += f.bytes;
  return n;
}

template <class T>
concept RadixSortable = std::is_trivially_copyable_v<T> && requires {
  RadixLayout<T>::fields;
} && radix_key_bytes<T>()
<= 32;

// A comparator other than std::less<T> that compares exactly RadixLayout<T>'s fields, in its
// order, declares `static constexpr bool kOrdersByRadixLayout = true;`.
template <class Less>
concept OrdersByRadixLayout = requires {
  requires Less::kOrdersByRadixLayout;
};

// Sorts data[0, n) using scratch[0, n) as the second buffer; the result ends in data.
template <RadixSortable T>
void radix_sort(T* data, T* scratch, std::size_t n) {
  if (n < 2) return;
  constexpr auto& fields = RadixLayout<T>::fields;
  // Digit byte offsets, least significant first.
  constexpr std::size_t kMaxDigits = 32;
  std::array<std::uint32_t, kMaxDigits> digit{};
  std::size_t digits = 0;
  for (std::size_t f = fields.size(); f-- > 0;)
    for (std::uint32_t b = 0; b < fields[f].bytes && digits < kMaxDigits; ++b)
      digit[digits++] = fields[f].offset + b;

  std::vector<std::array<std::size_t, 256>> count(digits);
  for (auto& c : count) c.fill(0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i, bytes += sizeof(T))
    for (std::size_t d = 0; d < digits; ++d) ++count[d][bytes[digit[d]]];

  T* src = data;
  T* dst = scratch;
  for (std::size_t d = 0; d < digits; ++d) {
    auto& c = count[d];
    const std::uint32_t off = digit[d];
    const auto* first = reinterpret_cast<const unsigned char*>(src);
    if (c[first[off]] == n) continue;  // every record has this byte: nothing to reorder
    std::array<std::size_t, 256> pos;
    std::size_t sum = 0;
    for (std::size_t v = 0; v < 256; ++v) pos[v] = sum, sum += c[v];
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char v = reinterpret_cast<const unsigned char*>(src + i)[off];
      std::memcpy(static_cast<void*>(dst + pos[v]++), src + i, sizeof(T));
    }
    std::swap(src, dst);
  }
  if (src != data) std::memcpy(static_cast<void*>(data), src, n * sizeof(T));
}

}  // namespace zermelo
