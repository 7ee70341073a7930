// Lookups shared by the threads that probe one database.
//
// A ValuesLookup remembers the blocks it has read, which makes repeated probes cheap, but it is
// not safe to use from two threads at once. The pool hands each probe a lookup of its own for the
// length of the probe (made on demand, kept for the next one), so that concurrent probes never
// share one and a single-threaded caller keeps one warm lookup.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "zermelo/engine/optimal_line.hpp"

namespace zermelo::probe {

class LookupPool {
 public:
  explicit LookupPool(std::vector<std::string> values_runs) : runs_(std::move(values_runs)) {}

  // A lookup held by one probe; returned to the pool when the lease ends.
  class Lease {
   public:
    Lease(LookupPool& pool, std::unique_ptr<ValuesLookup> lookup)
        : pool_(pool), lookup_(std::move(lookup)) {}
    ~Lease() { pool_.give_back(std::move(lookup_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ValuesLookup& operator*() const { return *lookup_; }

   private:
    LookupPool& pool_;
    std::unique_ptr<ValuesLookup> lookup_;
  };

  Lease lease() {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      if (!idle_.empty()) {
        auto lookup = std::move(idle_.back());
        idle_.pop_back();
        return Lease(*this, std::move(lookup));
      }
    }
    return Lease(*this, std::make_unique<ValuesLookup>(runs_));
  }

 private:
  void give_back(std::unique_ptr<ValuesLookup> lookup) {
    std::lock_guard<std::mutex> hold(mutex_);
    idle_.push_back(std::move(lookup));
  }

  std::vector<std::string> runs_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<ValuesLookup>> idle_;
};

}  // namespace zermelo::probe
