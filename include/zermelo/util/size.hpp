// Byte sizes as people write them on a command line ("512M", "4G", "1.5GiB") and the default
// memory budget. A budget is a hard limit, so parsing is strict: garbage is an error, not zero.
#pragma once
#include <cstdint>
#include <string>

namespace zermelo {

std::uint64_t parse_size(const std::string& text);  // throws std::invalid_argument naming the text
std::string format_bytes(double bytes);             // "1.23 GiB"
// As parse_size reads it back, rounded up to whole MiB: "160M" (a --memory floor in a message).
std::string format_size_argument(std::uint64_t bytes);
std::uint64_t physical_memory_bytes();
std::uint64_t default_memory_budget();  // half of physical RAM

}  // namespace zermelo
