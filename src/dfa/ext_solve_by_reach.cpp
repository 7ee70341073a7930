// Meet in the middle with the ply sets out of core (include/zermelo/dfa/ext_solve.hpp): the steps
// of solve_by_reach.cpp, each set operation an ext_apply and each image an ext_change_all.
#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "zermelo/dfa/ext_image.hpp"
#include "zermelo/dfa/ext_solve.hpp"

namespace zermelo::dfa {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ExtSetStats stats_of(const ExtDfa& s) { return ExtSetStats{s.total_states(), s.digest}; }

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
           std::string dir, const ExtOptions& o, const Progress& progress)
      : g_(g), max_plies_(max_plies), dir_(std::move(dir)), o_(o), progress_(progress) {
    if (!((g.won0 | g.lost0) - (known_won | known_lost)).is_empty())
      throw std::invalid_argument(
          "ext_solve_by_reach: the known sets must contain every terminal position");
    std::filesystem::create_directories(dir_);
    o_.scratch_dir = dir_ + "/scratch";
    o_.durable_result = false;  // no resume reads these sets: a crash redoes the solve
    known_won_ = save_ext(known_won, dir_ + "/known-won", false);
    known_lost_ = save_ext(known_lost, dir_ + "/known-lost", false);
    known_ = save_ext(known_won | known_lost, dir_ + "/known", false);
    group_moves();
  }

  ExtReachResult run() {
    search_forward();
    r_.forward_seconds = seconds_since(t0_);
    back_up();
    r_.backward_seconds = seconds_since(t0_) - r_.forward_seconds;
    std::filesystem::remove_all(dir_);
    return std::move(r_);
  }

 private:
  void search_forward() {
    ExtDfa current = save_ext(g_.manager->singleton(g_.start), ply_dir("R", 0), false);
    while (!current.empty()) {
      const unsigned ply = static_cast<unsigned>(r_.steps.size());
      if (ply > max_plies_)
        throw std::runtime_error("ext_solve_by_reach: still reaching new positions after " +
                                 std::to_string(max_plies_) + " plies (is the game acyclic?)");
      const ExtDfa open = apply(ExtOp::kMinus, current, known_, ply_dir("Open", ply));
      ExtReachStep st;
      st.ply = ply;
      st.reach = stats_of(current);
      st.undecided = stats_of(open);
      st.seconds = seconds_since(t0_);
      r_.steps.push_back(st);
      if (progress_) progress_(st, false);
      current = image(open, false, ply_dir("R", ply + 1));
    }
    remove_ext(current.dir);
  }

  // From the deepest ply up: Won(i) = (R(i) ∩ KW) ∪ (Open(i) ∩ (reverse(KL) ∪ reverse(passed))),
  // Lost(i) = R(i) \ Won(i), and the set handed up is Open(i) \ Won(i) (solve_by_reach.cpp).
  void back_up() {
    const ExtDfa into_known_lost = image(known_lost_, true, dir_ + "/into-known-lost");
    ExtDfa passed;  // Open(i+1) \ Won(i+1); none below the deepest ply
    for (std::size_t i = r_.steps.size(); i-- > 0;) {
      const std::string p = std::to_string(i);
      const ExtDfa reach = open_ext(ply_dir("R", i)), open = open_ext(ply_dir("Open", i));
      ExtDfa won_open = apply(ExtOp::kIntersect, open, into_known_lost, tmp("won-open-" + p));
      if (!passed.dir.empty() && !passed.empty()) {
        const ExtDfa back = image(passed, true, tmp("back-" + p));
        const ExtDfa rest = apply(ExtOp::kMinus, open, won_open, tmp("rest-" + p));
        const ExtDfa more = apply(ExtOp::kIntersect, back, rest, tmp("more-" + p));
        won_open = replace(won_open, apply(ExtOp::kUnion, won_open, more, tmp("won-open2-" + p)));
        remove_ext(back.dir), remove_ext(rest.dir), remove_ext(more.dir);
      }
      const ExtDfa won_known = apply(ExtOp::kIntersect, reach, known_won_, tmp("won-known-" + p));
      const ExtDfa won = apply(ExtOp::kUnion, won_known, won_open, tmp("won-" + p));
      const ExtDfa lost = apply(ExtOp::kMinus, reach, won, tmp("lost-" + p));
      check_consistent(lost, p);
      const ExtDfa next = apply(ExtOp::kMinus, open, won_open, tmp("passed-" + p));
      if (!passed.dir.empty()) remove_ext(passed.dir);
      passed = next;
      ExtReachStep& st = r_.steps[i];
      st.won = stats_of(won), st.lost = stats_of(lost);
      st.seconds = seconds_since(t0_);
      if (i == 0) r_.start_won = !won.empty();  // R(0) = {start}
      for (const std::string& d :
           {reach.dir, open.dir, won_open.dir, won_known.dir, won.dir, lost.dir})
        remove_ext(d);
      if (progress_) progress_(st, true);
    }
  }

  void check_consistent(const ExtDfa& lost, const std::string& ply) {
    const ExtDfa bad = apply(ExtOp::kIntersect, lost, known_won_, tmp("check-" + ply));
    const bool ok = bad.empty();
    remove_ext(bad.dir);
    if (!ok) throw std::logic_error("ext_solve_by_reach: inconsistent known sets");
  }

  // forward(s) (or reverse) of solver.cpp: per group of moves, filter, image, filter, unite.
  ExtDfa image(const ExtDfa& s, bool backwards, const std::string& out) {
    std::vector<ExtDfa> parts;
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const MoveGroup& grp = groups_[k];
      const std::string& in = backwards ? grp.post : grp.pre;
      const std::string& filter_out = backwards ? grp.pre : grp.post;
      const std::string part = tmp("image-" + std::to_string(k));
      ExtDfa from = in.empty() ? s : apply(ExtOp::kIntersect, s, open_ext(in), part + "-in");
      ExtDfa moved =
          ext_change_all(from, backwards ? grp.backward : grp.forward, part + "-moved", o_);
      if (from.dir != s.dir) remove_ext(from.dir);
      if (!filter_out.empty())
        moved = replace(moved, apply(ExtOp::kIntersect, moved, open_ext(filter_out), part));
      parts.push_back(moved);
    }
    return unite(parts, out);
  }

  ExtDfa unite(std::vector<ExtDfa> parts, const std::string& out) {
    if (parts.empty()) return save_ext(g_.manager->empty(), out, false);
    while (parts.size() > 1) {
      const ExtDfa u = apply(ExtOp::kUnion, parts[0], parts[1], tmp("unite-" + fresh()));
      remove_ext(parts[0].dir), remove_ext(parts[1].dir);
      parts.erase(parts.begin(), parts.begin() + 2);
      parts.push_back(u);
    }
    remove_ext(out);
    std::filesystem::rename(parts[0].dir, out);
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
    return s == g_.all ? std::string() : save_ext(s, dir_ + "/" + name, false).dir;
  }
  ExtDfa apply(ExtOp op, const ExtDfa& a, const ExtDfa& b, const std::string& out) {
    return ext_apply(op, a, b, out, o_);
  }
  ExtDfa replace(const ExtDfa& old, const ExtDfa& with) {
    remove_ext(old.dir);
    return with;
  }
  std::string ply_dir(const char* what, std::size_t ply) const {
    return dir_ + "/" + what + "-" + std::to_string(ply);
  }
  std::string tmp(const std::string& name) const { return dir_ + "/tmp-" + name; }
  std::string fresh() { return std::to_string(next_++); }

  const SetGame& g_;
  const unsigned max_plies_;
  const std::string dir_;
  ExtOptions o_;
  const Progress& progress_;
  ExtDfa known_won_, known_lost_, known_;
  std::vector<MoveGroup> groups_;
  ExtReachResult r_;
  std::uint64_t next_ = 0;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace

ExtReachResult ext_solve_by_reach(const SetGame& g, const Set& known_won, const Set& known_lost,
                                  unsigned max_plies, const std::string& work_dir,
                                  const ExtOptions& options,
                                  const std::function<void(const ExtReachStep&, bool)>& progress) {
  return ExtReach(g, known_won, known_lost, max_plies, work_dir, options, progress).run();
}

}  // namespace zermelo::dfa
