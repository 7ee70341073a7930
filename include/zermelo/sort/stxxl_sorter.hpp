// STXXL's sorter behind the same push / sort / next interface as ExternalSorter, so the two
// back ends can be measured side by side and swapped in a pass.
//
// STXXL 1.4 is unmaintained upstream and has two traps this wrapper closes: without a
// configuration it silently creates a 1000 MiB file in /var/tmp, so the disk is configured here,
// once per process, in the job's work directory and sized for the job (autogrow, deleted at exit);
// and it logs to stdout, so its log goes to a file in that directory instead. Its sorter needs
// sentinels below and above every record that never occur in the data: the caller supplies them.
#pragma once
#include <cstdint>
#include <string>

#include <stxxl/sorter>

namespace zermelo {

// Points STXXL's scratch disk at work_dir/stxxl.disk (initial size `bytes`, growing as needed).
// Must run before any STXXL container is made; a second call with another directory throws.
void configure_stxxl(const std::string& work_dir, std::uint64_t bytes);

template <class T, class Less, T kMin, T kMax>
class StxxlSorter {
  struct Cmp {
    bool operator()(const T& a, const T& b) const { return Less()(a, b); }
    T min_value() const { return kMin; }
    T max_value() const { return kMax; }
  };

 public:
  StxxlSorter(const std::string& work_dir, std::uint64_t memory_bytes, std::uint64_t expected_bytes)
      : sorter_((configure_stxxl(work_dir, expected_bytes), Cmp()),
                static_cast<stxxl::unsigned_type>(memory_bytes)) {}

  void push(const T& r) { sorter_.push(r); }
  std::uint64_t size() const { return sorter_.size(); }
  void sort() { sorter_.sort(); }
  bool next(T& out) {
    if (sorter_.empty()) return false;
    out = *sorter_;
    ++sorter_;
    return true;
  }

 private:
  stxxl::sorter<T, Cmp> sorter_;
};

}  // namespace zermelo
