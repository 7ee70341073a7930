// Set images and set-based retrograde analysis (see include/zermelo/dfa/solver.hpp; the
// meet-in-the-middle solve is in solve_by_reach.cpp).
#include "zermelo/dfa/solver.hpp"

#include <chrono>
#include <cmath>
#include <map>

#include "zermelo/dfa/ext_dfa.hpp"

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

SetStats stats_of(const Set& s, bool digest) {
  SetStats st;
  const Set::Measure mm = s.measure();
  st.positions = mm.positions;
  st.states = mm.states;
  st.bytes = mm.bytes;
  if (digest) st.digest = canonical_digest(s);
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
    st.won = stats_of(w, g.digests);
    st.lost = stats_of(l, g.digests);
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
