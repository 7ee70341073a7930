// The probe API over a SolvedDatabase (zermelo/probe.hpp).
#include <mutex>
#include <unordered_set>

#include "src/probe/database_impl.hpp"
#include "src/probe/guarded.hpp"
#include "zermelo/engine/perfect_play.hpp"
#include "zermelo/engine/state_text.hpp"

namespace zermelo::probe {
namespace {

probe::Value public_value(zermelo::Value v) { return ValuesRun::decode(v.raw()); }

}  // namespace

std::string Value::text() const {
  switch (outcome) {
    case Outcome::kWin:
      return "win in " + std::to_string(plies);
    case Outcome::kLoss:
      return "loss in " + std::to_string(plies);
    case Outcome::kDraw:
      return "draw";
    default:
      return "unknown";
  }
}

Database::Impl::Impl(const std::string& dir)
    : lock(dir, WorkDirLock::Mode::kRead, "probe"), db(dir, GameRequest{}), pool(db.all_values()) {}

zermelo::Value Database::Impl::known(ValuesLookup& lookup, StateKey key) const {
  // Looked up before the game sees the key: a key that is no state may not even decode.
  const zermelo::Value v = lookup.find(key);
  if (!v.is_known())
    throw Error(ErrorCode::kNoValue, db.game().name() + ": no value for key " +
                                         std::to_string(key) + " in " + db.dir() +
                                         " (not a state of this game, or of a tier not solved "
                                         "here)");
  return v;
}

void Database::Impl::successors(ValuesLookup& lookup, StateKey key,
                                std::vector<Child>& kids) const {
  known(lookup, key);  // a key that is no state of the game is an error, not a decoded guess
  kids.clear();
  if (!db.game().terminal_value(key).is_known()) db.game().successors(key, kids);
}

std::size_t Database::Impl::best(ValuesLookup& lookup, const std::vector<Child>& kids) const {
  for (auto& c : kids) of_child(lookup, c);  // an error names a child without a value
  return perfect_move(lookup, kids);
}

zermelo::Value Database::Impl::of_child(ValuesLookup& lookup, const Child& c) const {
  return c.is_terminal() ? c.terminal : known(lookup, c.key);
}

Move Database::Impl::move(ValuesLookup& lookup, StateKey key, const std::vector<Child>& kids,
                          std::size_t i) const {
  const Child& c = kids[i];
  return Move{db.game().move_name(key, i), public_value(of_child(lookup, c).parent_via()),
              c.is_terminal(), c.is_terminal() ? 0 : c.key};
}

struct Database::Held {
  std::mutex mutex;
  std::shared_ptr<const Impl> impl;
};

Database::Database(const std::string& work_dir) : held_(std::make_unique<Held>()) {
  held_->impl = guarded(ErrorCode::kOpen, [&] { return std::make_shared<const Impl>(work_dir); });
}
Database::~Database() = default;
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;

std::shared_ptr<const Database::Impl> Database::impl() const {
  std::shared_ptr<const Impl> impl;
  if (held_) {
    std::lock_guard<std::mutex> hold(held_->mutex);
    impl = held_->impl;
  }
  if (!impl) throw Error(ErrorCode::kClosed, "the database is closed");
  return impl;
}

void Database::close() {
  if (!held_) return;
  std::shared_ptr<const Impl> last;  // released outside the mutex
  std::lock_guard<std::mutex> hold(held_->mutex);
  last.swap(held_->impl);
}

std::string Database::game() const { return impl()->db.game().name(); }
std::vector<std::string> Database::options() const { return impl()->db.game().options(); }
std::string Database::work_dir() const { return impl()->db.dir(); }
std::vector<std::string> Database::tiers() const { return impl()->db.tiers(); }

std::uint64_t Database::key(const std::string& state) const {
  const auto held = impl();
  return guarded(ErrorCode::kBadState, [&] { return read_state(held->db.game(), state); });
}

std::string Database::render(std::uint64_t key) const {
  return guarded(ErrorCode::kInternal, [&] {
    const auto held = impl();
    held->known(*held->pool.lease(), key);  // a key that is no state is an error, not a crash
    return held->db.game().render(key);
  });
}

probe::Value Database::value(std::uint64_t key) const {
  return guarded(ErrorCode::kInternal, [&] {
    const auto held = impl();
    const Impl& i = *held;
    return public_value(i.known(*i.pool.lease(), key));
  });
}

std::vector<Move> Database::moves(std::uint64_t key) const {
  return guarded(ErrorCode::kInternal, [&] {
    const auto held = impl();
    const Impl& i = *held;
    auto lookup = i.pool.lease();
    std::vector<Child> kids;
    i.successors(*lookup, key, kids);
    std::vector<Move> out;
    for (std::size_t m = 0; m < kids.size(); ++m) out.push_back(i.move(*lookup, key, kids, m));
    return out;
  });
}

std::optional<Move> Database::best_move(std::uint64_t key) const {
  return guarded(ErrorCode::kInternal, [&]() -> std::optional<Move> {
    const auto held = impl();
    const Impl& i = *held;
    auto lookup = i.pool.lease();
    std::vector<Child> kids;
    i.successors(*lookup, key, kids);
    const std::size_t best = i.best(*lookup, kids);
    if (best == kids.size()) return std::nullopt;
    return i.move(*lookup, key, kids, best);
  });
}

std::vector<Step> Database::line(std::uint64_t key, std::size_t max_steps) const {
  return guarded(ErrorCode::kInternal, [&] {
    const auto held = impl();
    const Impl& i = *held;
    auto lookup = i.pool.lease();
    std::vector<Step> out;
    std::unordered_set<StateKey> seen;
    std::vector<Child> kids;
    for (StateKey s = key;;) {
      out.push_back(Step{s, public_value(i.known(*lookup, s)), ""});
      if (out.size() > max_steps || !seen.insert(s).second) break;  // enough moves, or a cycle
      i.successors(*lookup, s, kids);
      const std::size_t best = i.best(*lookup, kids);
      if (best == kids.size()) break;
      out.back().move = i.db.game().move_name(s, best);
      if (kids[best].is_terminal()) break;
      s = kids[best].key;
    }
    return out;
  });
}

}  // namespace zermelo::probe
