// Set-based retrograde analysis and meet-in-the-middle (see include/zermelo/dfa/solver.hpp).
#include "zermelo/dfa/solver.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <map>
#include <stdexcept>
#include <tuple>

#include "zermelo/dfa/set_file.hpp"

namespace zermelo::dfa {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Shared shape of forward and reverse: group moves by their input filter so that S ∩ filter is
// computed once per distinct filter, and by their output filter so that it is applied once.
Set image(const SetGame& g, const Set& s, bool backwards, const Set* within = nullptr) {
  Manager& m = *g.manager;
  // Moves grouped by (input filter, output filter): each group is one partitioned image.
  std::map<std::pair<NodeId, NodeId>, std::vector<const SetMove*>> groups;
  for (const SetMove& mv : g.moves) {
    const Set& in = backwards ? mv.post : mv.pre;
    const Set& out = backwards ? mv.pre : mv.post;
    groups[{in.root(), out.root()}].push_back(&mv);
  }
  std::vector<Set> parts;
  for (auto& [filters, moves] : groups) {
    const SetMove& first = *moves.front();
    const Set& in = backwards ? first.post : first.pre;
    const Set& out = backwards ? first.pre : first.post;
    Set from = in == g.all ? s : s & in;
    if (from.is_empty()) continue;
    std::vector<Manager::ChangeId> ids;
    for (const SetMove* mv : moves) ids.push_back(backwards ? mv->backward : mv->forward);
    Set moved = m.empty();
    if (g.partitioned_image && within) {
      moved = from.change_all_within(ids, out == g.all ? *within : *within & out);
    } else {
      if (g.partitioned_image) {
        moved = from.change_all(ids);
      } else {
        std::vector<Set> one_by_one;
        for (auto id : ids) one_by_one.push_back(from.change(id));
        moved = unite_all(std::move(one_by_one), m);
      }
      if (!(out == g.all)) moved = moved & out;
      if (within) moved = moved & *within;
    }
    parts.push_back(moved);
  }
  return unite_all(std::move(parts), m);
}

// The statistics of two sets, walked at once when the manager has two threads (the walks only
// read the table, and nothing builds states meanwhile).
std::pair<SetStats, SetStats> stats_of_both(const Set& a, const Set& b) {
  if (a.manager()->threads() == 1) return {stats_of(a), stats_of(b)};
  auto second = std::async(std::launch::async, [&b] { return stats_of(b); });
  SetStats first = stats_of(a);
  return {first, second.get()};
}

}  // namespace

void SetGame::add_move(std::string move_name, const Set& pre, const Set& post,
                       const Change& change) {
  SetMove mv;
  mv.name = std::move(move_name);
  mv.pre = pre;
  mv.post = post;
  mv.forward = manager->intern(change);
  mv.backward = manager->intern(change.inverse());
  mv.change = change;
  moves.push_back(std::move(mv));
}

Set forward(const SetGame& g, const Set& s) { return image(g, s, false); }
Set reverse(const SetGame& g, const Set& s) { return image(g, s, true); }
Set reverse_within(const SetGame& g, const Set& s, const Set& within) {
  return image(g, s, true, &within);
}

SetStats stats_of(const Set& s) {
  SetStats st;
  const Set::Measure mm = s.measure();
  st.positions = mm.positions;
  st.states = mm.states;
  st.bytes = mm.bytes;
  return st;
}

RetrogradeResult retrograde(const SetGame& g, unsigned max_steps,
                            const std::function<void(const RetrogradeStep&)>& progress) {
  auto t0 = std::chrono::steady_clock::now();
  RetrogradeResult r;
  const Set terminal = g.won0 | g.lost0;
  const Set nonterminal = g.all - terminal;
  Set w = g.won0, l = g.lost0;
  auto record = [&](unsigned i) {
    RetrogradeStep st;
    st.step = i;
    st.won = stats_of(w);
    st.lost = stats_of(l);
    st.table_states = g.manager->live_nodes();
    st.seconds = seconds_since(t0);
    r.steps.push_back(st);
    if (progress) progress(st);
  };
  record(0);
  for (unsigned i = 0; i < max_steps; ++i) {
    Set w_next = g.won0 | reverse(g, l);
    Set l_next = g.lost0 | (nonterminal - reverse(g, g.all - w));
    bool fixed = w_next == w && l_next == l;  // canonical sets: equality is root equality
    w = std::move(w_next);
    l = std::move(l_next);
    if (fixed) {
      r.converged = true;
      break;
    }
    record(i + 1);
  }
  r.won = w;
  r.lost = l;
  return r;
}

ReachResult solve_by_reach(const SetGame& g, const Set& known_won, const Set& known_lost,
                           unsigned max_plies,
                           const std::function<void(const ReachStep&, bool)>& progress,
                           bool keep_sets, const std::string& spill_dir) {
  auto t0 = std::chrono::steady_clock::now();
  Manager& m = *g.manager;
  ReachResult r;
  const Set known = known_won | known_lost;
  if (!((g.won0 | g.lost0) - known).is_empty())
    throw std::invalid_argument(
        "solve_by_reach: the known sets must contain every terminal position");
  // Spilled forward sets: R(i) and Open(i) in set files from when the forward search has expanded
  // them until the back-up reaches ply i.
  auto spill_path = [&](const char* what, std::size_t i) {
    return spill_dir + "/" + what + "_" + std::to_string(i) + ".zdfa";
  };
  auto spill = [&](Set& s, const char* what, std::size_t i) {
    save_set(s, spill_path(what, i));
    s = m.empty();
  };
  auto unspill = [&](Set& s, const char* what, std::size_t i) {
    s = load_set(m, spill_path(what, i));
    std::filesystem::remove(spill_path(what, i));
  };
  if (!spill_dir.empty()) std::filesystem::create_directories(spill_dir);
  Set all_reached = m.empty();
  Set current = m.singleton(g.start);
  std::vector<Set> undecided;
  // Resume: the plies an earlier run of this solve spilled, read back as they are.
  auto spilled = [&](std::size_t i) {
    return std::filesystem::exists(spill_path("reach", i)) &&
           std::filesystem::exists(spill_path("open", i));
  };
  Set last_open = m.empty();
  for (std::size_t i = 0; !spill_dir.empty() && spilled(i); ++i) {
    Set reach = load_set(m, spill_path("reach", i)), open = load_set(m, spill_path("open", i));
    if ((i == 0 && reach != current) || open != reach - known)
      throw std::runtime_error("solve_by_reach: the set files of ply " + std::to_string(i) +
                               " in " + spill_dir +
                               " are not this solve's (another game, board or known sets); "
                               "remove them or spill elsewhere");
    ReachStep st;
    st.ply = static_cast<unsigned>(i);
    st.resumed = true;
    std::tie(st.reach, st.undecided) = stats_of_both(reach, open);
    st.seconds = seconds_since(t0);
    all_reached = all_reached | reach;
    r.reach.push_back(m.empty());
    undecided.push_back(m.empty());
    r.steps.push_back(st);
    r.resumed_plies = i + 1;
    if (progress) progress(st, false);
    last_open = open;
  }
  if (r.resumed_plies > 0) current = forward(g, last_open);
  last_open = m.empty();
  while (!current.is_empty()) {
    if (r.reach.size() > max_plies)
      throw std::runtime_error("solve_by_reach: still reaching new positions after " +
                               std::to_string(max_plies) + " plies (is the game acyclic?)");
    Set open = current - known;
    ReachStep st;
    st.ply = static_cast<unsigned>(r.reach.size());
    std::tie(st.reach, st.undecided) = stats_of_both(current, open);
    st.seconds = seconds_since(t0);
    all_reached = all_reached | current;
    r.reach.push_back(current);
    undecided.push_back(open);
    r.steps.push_back(st);
    if (progress) progress(st, false);
    current = forward(g, open);
    if (!spill_dir.empty()) {
      open = m.empty();
      spill(r.reach.back(), "reach", st.ply);
      spill(undecided.back(), "open", st.ply);
    }
  }
  r.forward_seconds = seconds_since(t0);
  r.distinct = stats_of(all_reached);
  r.distinct_positions = r.distinct.positions;
  all_reached = m.empty();  // only its statistics are needed

  const std::size_t n = r.reach.size();
  r.won.assign(n, m.empty());
  r.lost.assign(n, m.empty());
  // Lost(i+1) = (R(i+1) ∩ known_lost) ∪ (Open(i+1) \ Won(i+1)). Every move of an open position of
  // R(i) lands in R(i+1), so its moves into the first part are exactly its moves into known_lost:
  // reverse(known_lost) is computed once (one retrograde-sized step on compact sets) and only the
  // second, much smaller part is reversed ply by ply.
  const Set into_known_lost = reverse(g, known_lost);
  Set open_lost_below = m.empty();  // Open(i+1) \ Won(i+1)
  for (std::size_t i = n; i-- > 0;) {
    if (!spill_dir.empty()) {
      unspill(r.reach[i], "reach", i);
      unspill(undecided[i], "open", i);
    }
    // Every successor of an undecided position of R(i) lies in R(i+1) = Won(i+1) ∪ Lost(i+1):
    // it is won iff some move reaches Lost(i+1), and lost otherwise.
    Set won_open = undecided[i] & into_known_lost;
    if (!open_lost_below.is_empty())
      won_open = won_open | reverse_within(g, open_lost_below, undecided[i] - won_open);
    r.won[i] = (r.reach[i] & known_won) | won_open;
    r.lost[i] = r.reach[i] - r.won[i];
    if (!(r.lost[i] & known_won).is_empty())
      throw std::logic_error("solve_by_reach: inconsistent known sets");
    std::tie(r.steps[i].won, r.steps[i].lost) = stats_of_both(r.won[i], r.lost[i]);
    open_lost_below = undecided[i] - won_open;
    if (g.simplify_backup && i > 0) {
      // Ply i-1 asks only whether its undecided positions outside reverse(known_lost) have a move
      // into this set, and all their moves land in R(i) \ known_lost: outside that the set is
      // free, and the restrict often needs fewer states (a third fewer on half the plies of 5x5).
      Set simpler = open_lost_below.restrict_to(r.reach[i] - known_lost);
      if (simpler.states() < open_lost_below.states()) open_lost_below = simpler;
    }
    r.steps[i].passed_states = open_lost_below.states();
    r.steps[i].seconds = seconds_since(t0);
    if (progress) progress(r.steps[i], true);
    if (!keep_sets && i + 1 < n) {
      r.reach[i + 1] = r.won[i + 1] = r.lost[i + 1] = undecided[i + 1] = m.empty();
    }
  }
  r.backward_seconds = seconds_since(t0) - r.forward_seconds;
  r.start_won = r.won.empty() ? false : r.won[0].contains(g.start);
  return r;
}

double fit_compression_exponent(const std::vector<SetStats>& sets, std::uint64_t min_positions) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (const SetStats& s : sets) {
    if (s.positions <= min_positions || s.states == 0) continue;
    double x = std::log(static_cast<double>(s.positions)),
           y = std::log(static_cast<double>(s.states));
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++k;
  }
  if (k < 2) return 0;
  double den = k * sxx - sx * sx;
  return den > 0 ? (k * sxy - sx * sy) / den : 0;
}

}  // namespace zermelo::dfa
