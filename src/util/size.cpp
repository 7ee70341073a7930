#include "zermelo/util/size.hpp"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace zermelo {

std::uint64_t parse_size(const std::string& text) {
  std::size_t pos = 0;
  double number = 0;
  try {
    number = std::stod(text, &pos);
  } catch (const std::exception&) {
    throw std::invalid_argument("bad size '" + text + "' (expected e.g. 512M or 4G)");
  }
  std::string unit = text.substr(pos);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();  // "GB", "GIB" -> "G", "GI"
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  double scale = 1;
  if (unit == "")
    scale = 1;
  else if (unit == "K")
    scale = 1024.0;
  else if (unit == "M")
    scale = 1024.0 * 1024;
  else if (unit == "G")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "T")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else
    throw std::invalid_argument("bad size unit in '" + text + "' (use K, M, G or T)");
  if (!(number > 0) || !std::isfinite(number))
    throw std::invalid_argument("size must be positive: '" + text + "'");
  if (number * scale >= 18446744073709551616.0)  // 2^64: past it the conversion is undefined
    throw std::invalid_argument("size too large: '" + text + "'");
  return static_cast<std::uint64_t>(number * scale);
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

std::string format_size_argument(std::uint64_t bytes) {
  return std::to_string((bytes + (1u << 20) - 1) >> 20) + "M";
}

std::uint64_t physical_memory_bytes() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint64_t default_memory_budget() { return physical_memory_bytes() / 2; }

}  // namespace zermelo
