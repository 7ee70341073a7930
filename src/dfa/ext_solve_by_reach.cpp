// Meet in the middle with the ply sets out of core (include/zermelo/dfa/ext_solve.hpp): the steps
// of solve_by_reach.cpp, each set operation an ext_apply and each image an ext_change_all, each
// finished ply recorded (ext_solve_manifest.hpp) so that a stopped solve goes on from there.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <optional>
#include <stdexcept>

#include "background_remover.hpp"
#include "zermelo/dfa/ext_count.hpp"
#include "zermelo/dfa/ext_image.hpp"
#include "zermelo/dfa/ext_solve.hpp"
#include "zermelo/dfa/ext_solve_manifest.hpp"
#include "zermelo/io/uring_file.hpp"

namespace zermelo::dfa {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The states, digest and bytes of a set, and its positions if one pass can count them.
ExtSetStats stats_of(const ExtDfa& s, std::uint64_t count_memory) {
  ExtSetStats st{s.total_states(), s.digest, 0, false, 0};
  for (std::size_t i = 0; i < s.states.size(); ++i) st.bytes += s.states[i] * s.alphabet[i] * 4;
  if (const auto n = ext_count(s, count_memory)) st.counted = true, st.positions = *n;
  return st;
}

}  // namespace

Json ext_stats_json(const ExtSetStats& s) {
  Json j = {{"states", s.states}, {"digest", hex(s.digest)}, {"bytes", s.bytes}};
  j["positions"] = s.counted ? Json(s.positions) : Json();
  j["positions_per_byte"] =
      s.counted && s.bytes ? Json(static_cast<double>(s.positions) / static_cast<double>(s.bytes))
                           : Json();
  return j;
}

Json ext_step_json(const ExtReachStep& s) {
  return {{"ply", s.ply},
          {"reach", ext_stats_json(s.reach)},
          {"open", ext_stats_json(s.undecided)},
          {"won", ext_stats_json(s.won)},
          {"lost", ext_stats_json(s.lost)},
          {"passed_states", s.passed_states},
          {"seconds", s.seconds},
          {"resumed", s.resumed},
          {"backup_resumed", s.backup_resumed}};
}

namespace {

ExtSetStats set_stats_from(const Json& j) {
  ExtSetStats s;
  s.states = j.at("states"), s.bytes = j.at("bytes");
  s.digest = std::stoull(j.at("digest").get<std::string>(), nullptr, 16);
  s.counted = !j.at("positions").is_null();
  if (s.counted) s.positions = j["positions"];
  return s;
}

// One group of moves with the same filters (as solver.cpp's image): the filters saved as
// external sets once, empty paths for the universe (no filtering).
struct MoveGroup {
  std::string pre, post;
  std::vector<Change> forward, backward;
};

class ExtReach {
 public:
  using Progress = std::function<void(const ExtReachStep&, bool)>;

  ExtReach(const SetGame& g, const Set& known_won, const Set& known_lost, unsigned max_plies,
           const std::string& dir, const std::string& identity, const ExtOptions& o,
           const Progress& progress)
      : g_(g), max_plies_(max_plies), dir_(dir), sets_(dir + "/sets"), o_(o), progress_(progress) {
    if (!((g.won0 | g.lost0) - (known_won | known_lost)).is_empty())
      throw std::invalid_argument(
          "ext_solve_by_reach: the known sets must contain every terminal position");
    fs::create_directories(sets_);
    o_.scratch_dir = dir_ + "/scratch";
    fs::remove_all(o_.scratch_dir);
    known_won_ = save_ext(known_won, fresh_dir("known-won"), false);
    known_lost_ = save_ext(known_lost, fresh_dir("known-lost"), false);
    known_ = save_ext(known_won | known_lost, fresh_dir("known"), false);
    manifest_.emplace(dir_, job_identity(identity));
    base_seconds_ = manifest_->doc().value("seconds", 0.0);
  }

  ExtReachResult run() {
    if (manifest_->doc().contains("result")) return recorded_result();
    remove_stale_sets();
    group_moves();
    search_forward();
    back_up();
    finish();
    return std::move(r_);
  }

 private:
  // What makes two calls one job: the caller's words, the start and the known sets.
  Json job_identity(const std::string& identity) const {
    const ExtDfa start = save_ext(g_.manager->singleton(g_.start), fresh_dir("start"), false);
    Json id = {{"job", identity},
               {"start", hex(start.digest)},
               {"known_won", hex(known_won_.digest)},
               {"known_lost", hex(known_lost_.digest)},
               {"moves", g_.moves.size()}};
    discard(start.dir);
    return id;
  }

  // ---- The forward search: R(0) = {start}, Open(i) = R(i) \ known, R(i+1) = forward(Open(i)).

  void search_forward() {
    ExtDfa current = resume_forward();
    if (manifest_->doc().contains("forward_plies")) return;
    while (!current.empty()) {
      const unsigned ply = static_cast<unsigned>(r_.steps.size());
      if (ply > max_plies_)
        throw std::runtime_error("ext_solve_by_reach: still reaching new positions after " +
                                 std::to_string(max_plies_) + " plies (is the game acyclic?)");
      ExtDfa open;
      ExtSetStats reach;
      at_once(
          [&](unsigned lane) {
            open = apply(ExtOp::kMinus, current, known_, fresh_dir("Open", ply), true, lane);
          },
          [&](unsigned) { reach = stats_of(current, count_memory()); });
      record_forward(ply, reach, open);
      current = image(open, false, fresh_dir("R", ply + 1), true);
    }
    discard(current.dir);
    manifest_->doc()["forward_plies"] = r_.steps.size();
    manifest_->doc()["forward_seconds"] = r_.forward_seconds = now();
    save("forward-done");
  }

  // The recorded forward plies (their sets checked), and R of the ply to expand next.
  ExtDfa resume_forward() {
    const Json& doc = manifest_->doc();
    for (const Json& j : doc.value("forward", Json::array())) {
      r_.steps.push_back(forward_step_from(j));
      report(r_.steps.back(), false);
    }
    r_.resumed_plies = r_.steps.size();
    r_.forward_seconds = doc.value("forward_seconds", 0.0);
    if (doc.contains("forward_plies") || r_.steps.empty())
      return r_.steps.empty() ? start_set() : ExtDfa{};
    const unsigned last = r_.steps.back().ply;
    return image(recorded("Open", last, r_.steps.back().undecided), false, fresh_dir("R", last + 1),
                 true);
  }

  ExtDfa start_set() { return save_ext(g_.manager->singleton(g_.start), fresh_dir("R", 0), true); }

  void record_forward(unsigned ply, const ExtSetStats& reach, const ExtDfa& open) {
    ExtReachStep st;
    st.ply = ply;
    st.reach = reach;
    st.undecided = stats_of(open, count_memory());
    st.seconds = now();
    r_.steps.push_back(st);
    manifest_->doc()["forward"].push_back({{"ply", ply},
                                           {"reach", ext_stats_json(st.reach)},
                                           {"open", ext_stats_json(st.undecided)},
                                           {"seconds", st.seconds}});
    save("forward-" + std::to_string(ply));
    report(st, false);
  }

  ExtReachStep forward_step_from(const Json& j) const {
    ExtReachStep st;
    st.ply = j.at("ply");
    st.reach = set_stats_from(j.at("reach"));
    st.undecided = set_stats_from(j.at("open"));
    st.seconds = j.at("seconds");
    st.resumed = true;
    return st;
  }

  // ---- The back-up, from the deepest ply up: Won(i) = (R(i) ∩ KW) ∪ (Open(i) ∩ (reverse(KL) ∪
  // reverse(passed(i+1)))), Lost(i) = R(i) \ Won(i), passed(i) = Open(i) \ Won(i).

  void back_up() {
    const ExtDfa into_known_lost = resume_into_known_lost();
    std::size_t i = r_.steps.size();
    ExtDfa passed = resume_back_up(i);
    for (; i-- > 0;) {
      ExtDfa next = back_up_ply(static_cast<unsigned>(i), into_known_lost, passed);
      discard(ply_dir("R", i)), discard(ply_dir("Open", i));
      if (!passed.dir.empty()) discard(passed.dir);
      passed = std::move(next);
    }
    if (!passed.dir.empty()) discard(passed.dir);
    discard(into_known_lost.dir);
  }

  // reverse(KL), as recorded by an earlier run or computed and recorded now.
  ExtDfa resume_into_known_lost() {
    Json& doc = manifest_->doc();
    const std::string out = sets_ + "/into-known-lost";
    if (doc.contains("into_known_lost"))
      return checked(out, set_stats_from(doc["into_known_lost"]));
    discard(out);
    const ExtDfa s = image(known_lost_, true, out, true);
    doc["into_known_lost"] = ext_stats_json(ExtSetStats{s.total_states(), s.digest, 0, false, 0});
    save("into-known-lost");
    return s;
  }

  // The plies an earlier run backed up (their statistics into the steps), and the set it handed
  // up from the last of them; `ply` becomes that ply (the number of plies if none).
  ExtDfa resume_back_up(std::size_t& ply) {
    const Json& rows = manifest_->doc().value("backup", Json::array());
    for (const Json& j : rows) {
      ply = j.at("ply").get<std::size_t>();
      ExtReachStep& st = r_.steps.at(ply);
      st.won = set_stats_from(j.at("won")), st.lost = set_stats_from(j.at("lost"));
      st.passed_states = j.at("passed").at("states");
      st.seconds = j.at("seconds");
      st.backup_resumed = true;
      report(st, true);
    }
    r_.resumed_backup_plies = rows.size();
    if (!rows.empty() && ply == 0) r_.start_won = rows.back().at("start_won");
    if (rows.empty() || manifest_->doc().contains("result")) return ExtDfa{};
    return checked(ply_dir("passed", ply), set_stats_from(rows.back().at("passed")));
  }

  // Backs up ply i and records it; returns the set it hands up (durable: a resume starts there).
  // With two threads the image of passed(i+1) runs beside the intersections that do not need it,
  // and Lost(i) beside passed(i): the same operations, two at a time.
  ExtDfa back_up_ply(unsigned i, const ExtDfa& into_known_lost, const ExtDfa& passed) {
    const std::string p = std::to_string(i);
    ExtReachStep& st = r_.steps[i];
    const ExtDfa reach = recorded("R", i, st.reach), open = recorded("Open", i, st.undecided);
    const bool moves_back = !passed.dir.empty() && !passed.empty();
    ExtDfa won_open, rest, won_known, back;
    at_once(
        [&](unsigned lane) {
          won_open =
              apply(ExtOp::kIntersect, open, into_known_lost, tmp("won-open-" + p), false, lane);
          if (moves_back)
            rest = apply(ExtOp::kMinus, open, won_open, tmp("rest-" + p), false, lane);
          won_known =
              apply(ExtOp::kIntersect, reach, known_won_, tmp("won-known-" + p), false, lane);
        },
        [&](unsigned lane) {
          if (moves_back) back = image(passed, true, tmp("back-" + p), false, lane);
        });
    if (moves_back) {
      const ExtDfa more = apply(ExtOp::kIntersect, back, rest, tmp("more-" + p));
      won_open = replace(won_open, apply(ExtOp::kUnion, won_open, more, tmp("won-open2-" + p)));
      discard(back.dir), discard(rest.dir), discard(more.dir);
    }
    const ExtDfa won = apply(ExtOp::kUnion, won_known, won_open, tmp("won-" + p));
    ExtDfa lost, next;
    at_once(
        [&](unsigned lane) {
          lost = apply(ExtOp::kMinus, reach, won, tmp("lost-" + p), false, lane);
          check_consistent(lost, p, lane);
          st.lost = stats_of(lost, count_memory());
        },
        [&](unsigned lane) {
          next = apply(ExtOp::kMinus, open, won_open, fresh_dir("passed", i), true, lane);
          st.won = stats_of(won, count_memory());
        });
    st.passed_states = next.total_states();
    if (i == 0) r_.start_won = !won.empty();  // R(0) = {start}
    for (const std::string& d : {won_open.dir, won_known.dir, won.dir, lost.dir}) discard(d);
    record_back_up(st, next);
    return next;
  }

  void record_back_up(ExtReachStep& st, const ExtDfa& passed) {
    st.seconds = now();
    manifest_->doc()["backup"].push_back(
        {{"ply", st.ply},
         {"won", ext_stats_json(st.won)},
         {"lost", ext_stats_json(st.lost)},
         {"passed", ext_stats_json(ExtSetStats{passed.total_states(), passed.digest, 0, false, 0})},
         {"start_won", r_.start_won},
         {"seconds", st.seconds}});
    save("backup-" + std::to_string(st.ply));
    report(st, true);
  }

  void check_consistent(const ExtDfa& lost, const std::string& ply, unsigned lane) {
    const ExtDfa bad = apply(ExtOp::kIntersect, lost, known_won_, tmp("check-" + ply), false, lane);
    const bool ok = bad.empty();
    discard(bad.dir);
    if (!ok) throw std::logic_error("ext_solve_by_reach: inconsistent known sets");
  }

  // ---- The end: the result recorded, the sets removed (the record stays).

  void finish() {
    r_.backward_seconds = now() - r_.forward_seconds;
    Json& doc = manifest_->doc();
    doc["result"] = {{"start_won", r_.start_won},
                     {"plies", r_.steps.size()},
                     {"forward_seconds", r_.forward_seconds},
                     {"backward_seconds", r_.backward_seconds}};
    save("finished");
    remover_.drain();
    fs::remove_all(sets_);
    fs::remove_all(o_.scratch_dir);
  }

  ExtReachResult recorded_result() {
    std::size_t ply = 0;
    resume_forward();
    resume_back_up(ply);
    const Json& res = manifest_->doc()["result"];
    r_.start_won = res.at("start_won");
    r_.forward_seconds = res.at("forward_seconds");
    r_.backward_seconds = res.at("backward_seconds");
    remover_.drain();
    fs::remove_all(sets_);
    fs::remove_all(o_.scratch_dir);
    return std::move(r_);
  }

  // ---- Files.

  // A recorded set, checked against its record (a missing or different set stops the solve).
  ExtDfa recorded(const char* what, std::size_t ply, const ExtSetStats& st) const {
    return checked(ply_dir(what, ply), st);
  }
  ExtDfa checked(const std::string& dir, const ExtSetStats& st) const {
    try {
      const ExtDfa s = open_ext(dir);
      if (s.digest == st.digest && s.total_states() == st.states) return s;
    } catch (const std::exception& e) {
      throw std::runtime_error(dir_ + ": a set the record names cannot be read (" + e.what() +
                               "); remove the directory to solve again");
    }
    throw std::runtime_error(dir_ + ": " + dir +
                             " differs from the record of it; remove the "
                             "directory to solve again");
  }

  // Every set an earlier, stopped run left that the record does not need (the ply it was
  // computing, the temporaries of that ply, the sets of plies it had backed up).
  void remove_stale_sets() {
    remover_.drain();
    std::vector<std::string> keep = {"known-won", "known-lost", "known"};
    const Json& doc = manifest_->doc();
    const std::size_t backed_up = doc.value("backup", Json::array()).size();
    const std::size_t forward = doc.value("forward", Json::array()).size();
    for (std::size_t i = 0; i + backed_up < forward; ++i)
      keep.push_back("R-" + std::to_string(i)), keep.push_back("Open-" + std::to_string(i));
    if (backed_up) keep.push_back("passed-" + std::to_string(forward - backed_up));
    if (doc.contains("into_known_lost")) keep.push_back("into-known-lost");
    for (const auto& e : fs::directory_iterator(sets_))
      if (std::find(keep.begin(), keep.end(), e.path().filename().string()) == keep.end())
        fs::remove_all(e.path());
  }

  // forward(s) (or reverse) of solver.cpp: per group of moves, filter, image, filter, unite.
  // `durable`: the result is a set the record will name (fsync'd, its directory too).
  ExtDfa image(const ExtDfa& s, bool backwards, const std::string& out, bool durable,
               unsigned lane = 0) {
    std::vector<ExtDfa> parts;
    const bool last_is_result = durable && groups_.size() == 1;
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const MoveGroup& grp = groups_[k];
      const std::string& in = backwards ? grp.post : grp.pre;
      const std::string& filter_out = backwards ? grp.pre : grp.post;
      const std::string part = tmp("image-" + std::to_string(lane) + "-" + std::to_string(k));
      ExtDfa from =
          in.empty() ? s : apply(ExtOp::kIntersect, s, open_ext(in), part + "-in", false, lane);
      ExtDfa moved = ext_change_all(from, backwards ? grp.backward : grp.forward, part + "-moved",
                                    options(last_is_result && filter_out.empty(), lane));
      if (from.dir != s.dir) discard(from.dir);
      if (!filter_out.empty())
        moved = replace(moved, apply(ExtOp::kIntersect, moved, open_ext(filter_out), part,
                                     last_is_result, lane));
      parts.push_back(moved);
    }
    return unite(parts, out, durable, lane);
  }

  ExtDfa unite(std::vector<ExtDfa> parts, const std::string& out, bool durable, unsigned lane) {
    discard(out);
    if (parts.empty()) return save_ext(g_.manager->empty(), out, durable);
    while (parts.size() > 1) {
      const bool last = parts.size() == 2;
      const ExtDfa u = apply(ExtOp::kUnion, parts[0], parts[1],
                             last ? out : tmp("unite-" + fresh()), last && durable, lane);
      discard(parts[0].dir), discard(parts[1].dir);
      parts.erase(parts.begin(), parts.begin() + 2);
      parts.push_back(u);
    }
    if (parts[0].dir != out) fs::rename(parts[0].dir, out);
    if (durable) sync_directory_of(out);
    return open_ext(out);
  }

  void group_moves() {
    std::map<std::pair<NodeId, NodeId>, std::size_t> index;
    for (const SetMove& mv : g_.moves) {
      auto [it, fresh_group] = index.try_emplace({mv.pre.root(), mv.post.root()}, groups_.size());
      if (fresh_group) {
        const std::string k = std::to_string(groups_.size());
        groups_.push_back(
            MoveGroup{filter(mv.pre, "pre-" + k), filter(mv.post, "post-" + k), {}, {}});
      }
      groups_[it->second].forward.push_back(mv.change);
      groups_[it->second].backward.push_back(mv.change.inverse());
    }
  }

  std::string filter(const Set& s, const std::string& name) {
    return s == g_.all ? std::string() : save_ext(s, sets_ + "/" + name, false).dir;
  }
  // Scratch results are not synced (a crash redoes the ply); recorded ones are. While two
  // operations run at once (at_once), each has its lane: its own scratch directory, half the
  // sorts' budget and one thread; otherwise the one operation has it all.
  ExtOptions options(bool durable, unsigned lane = 0) const {
    ExtOptions o = o_;
    o.durable_result = durable;
    if (split_) {
      o.scratch_dir += "/lane-" + std::to_string(lane);
      o.memory_bytes /= 2;
      o.threads = 1;
    }
    return o;
  }
  // Counts run beside other work: half the budget whatever the threads, so that which sets are
  // counted does not depend on them.
  std::uint64_t count_memory() const { return o_.memory_bytes / 2; }

  // a(0) and b(1) at once on two threads (both done, the first error rethrown), or a(0), b(0)
  // one after the other on one.
  template <class A, class B>
  void at_once(A&& a, B&& b) {
    if (o_.threads < 2) {
      a(0u), b(0u);
      return;
    }
    split_ = true;
    std::future<void> second = std::async(std::launch::async, [&b] { b(1u); });
    std::exception_ptr error;
    try {
      a(0u);
    } catch (...) {
      error = std::current_exception();
    }
    second.wait();
    split_ = false;
    if (error) std::rethrow_exception(error);
    second.get();
  }

  ExtDfa apply(ExtOp op, const ExtDfa& a, const ExtDfa& b, const std::string& out,
               bool durable = false, unsigned lane = 0) {
    const ExtDfa s = ext_apply(op, a, b, out, options(durable, lane));
    if (durable) sync_directory_of(out);
    return s;
  }
  // A set's directory removed: in the background with two threads (background_remover.hpp).
  void discard(const std::string& dir) const { remover_.remove(dir); }
  ExtDfa replace(const ExtDfa& old, const ExtDfa& with) {
    discard(old.dir);
    return with;
  }
  void save(const std::string& stage) {
    manifest_->doc()["seconds"] = now();
    manifest_->save(stage);
  }
  void report(const ExtReachStep& st, bool backing_up) const {
    if (progress_) progress_(st, backing_up);
  }
  std::string ply_dir(const char* what, std::size_t ply) const {
    return sets_ + "/" + what + "-" + std::to_string(ply);
  }
  // A set's directory, emptied of what a stopped run may have left there.
  std::string fresh_dir(const std::string& name) const {
    discard(sets_ + "/" + name);
    return sets_ + "/" + name;
  }
  std::string fresh_dir(const char* what, std::size_t ply) const {
    return fresh_dir(what + ("-" + std::to_string(ply)));
  }
  std::string tmp(const std::string& name) const { return sets_ + "/tmp-" + name; }
  std::string fresh() { return std::to_string(next_.fetch_add(1)); }
  double now() const {
    return base_seconds_ +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  const SetGame& g_;
  const unsigned max_plies_;
  const std::string dir_, sets_;
  ExtOptions o_;
  const Progress& progress_;
  ExtDfa known_won_, known_lost_, known_;
  std::optional<ExtSolveManifest> manifest_;
  double base_seconds_ = 0;
  std::vector<MoveGroup> groups_;
  ExtReachResult r_;
  std::atomic<std::uint64_t> next_{0};
  bool split_ = false;  // inside at_once: two operations run, each in its lane
  mutable BackgroundRemover remover_{sets_ + "/trash", o_.threads >= 2};
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace

ExtReachResult ext_solve_by_reach(const SetGame& g, const Set& known_won, const Set& known_lost,
                                  unsigned max_plies, const std::string& work_dir,
                                  const std::string& identity, const ExtOptions& options,
                                  const std::function<void(const ExtReachStep&, bool)>& progress) {
  return ExtReach(g, known_won, known_lost, max_plies, work_dir, identity, options, progress).run();
}

}  // namespace zermelo::dfa
