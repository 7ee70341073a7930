// A values run read block by block for analysis (zermelo/probe.hpp's ValuesRun).
#include <cstring>
#include <mutex>

#include "src/probe/database_impl.hpp"
#include "src/probe/guarded.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::probe {

struct ValuesRun::Impl {
  explicit Impl(std::unique_ptr<RunReader> run) : reader(std::move(run)) {
    const RunOptions& o = reader->info().options;
    if (!is_values_run(o))
      throw Error(ErrorCode::kOpen,
                  reader->info().path + ": a '" + o.record_type + "' run, not a values run");
  }
  std::unique_ptr<RunReader> reader;
  std::mutex mutex;  // RunReader reads one block at a time
};

namespace {

std::unique_ptr<RunReader> open_tier(const SolvedDatabase& db, const std::string& tier) {
  if (!db.solved(tier))
    throw Error(ErrorCode::kNoValue,
                db.game().name() + ": tier " + tier + " is not solved in " + db.dir());
  return guarded(ErrorCode::kOpen, [&] { return db.open_values(tier); });
}

}  // namespace

ValuesRun::ValuesRun(const Database& db, const std::string& tier)
    : impl_(guarded(ErrorCode::kOpen,
                    [&] { return std::make_unique<Impl>(open_tier(db.impl()->db, tier)); })) {}
ValuesRun::~ValuesRun() = default;
ValuesRun::ValuesRun(ValuesRun&&) noexcept = default;
ValuesRun& ValuesRun::operator=(ValuesRun&&) noexcept = default;

std::uint64_t ValuesRun::records() const { return impl_->reader->info().record_count; }
std::size_t ValuesRun::blocks() const { return impl_->reader->info().blocks.size(); }

void ValuesRun::read_block(std::size_t b, std::vector<std::uint64_t>& keys,
                           std::vector<std::uint16_t>& raw_values) const {
  if (b >= blocks())
    throw Error(ErrorCode::kNoValue,
                "block " + std::to_string(b) + " of a run of " + std::to_string(blocks()));
  const std::vector<std::byte> bytes = guarded(ErrorCode::kInternal, [&] {
    std::lock_guard<std::mutex> hold(impl_->mutex);
    return impl_->reader->read_block(b);
  });
  const std::size_t n = bytes.size() / sizeof(KeyValue);
  keys.resize(n), raw_values.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    KeyValue kv;
    std::memcpy(&kv, bytes.data() + i * sizeof(KeyValue), sizeof kv);
    keys[i] = kv.key, raw_values[i] = kv.value;
  }
}

Value ValuesRun::decode(std::uint16_t raw_value) {
  const zermelo::Value v = zermelo::Value::from_raw(raw_value);
  if (v.is_win()) return {Outcome::kWin, v.plies()};
  if (v.is_loss()) return {Outcome::kLoss, v.plies()};
  return {v.is_draw() ? Outcome::kDraw : Outcome::kUnknown, 0};
}

}  // namespace zermelo::probe
