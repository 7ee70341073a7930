// The charts view: the solve's tables from /api/tables (states by plies and tier, wins, draws
// and losses per tier) and the breadth-first search's levels when the server has them, drawn
// with the system's chart.js (served by `zermelo serve` at /chart.js, never from a CDN). The
// plies and the levels span orders of magnitude: a box each switches its y axis to log scale.
'use strict';

const charts = (() => {
  const $ = (id) => document.getElementById(id);
  let drawn = false;
  const palette = ['#1f5fbf', '#c0392b', '#1e8449', '#b9770e', '#7d3c98', '#117a65', '#555'];

  function loadChartJs() {
    if (window.Chart) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = '/chart.js';
      s.onload = resolve;
      s.onerror = () => reject(new Error(
          'chart.js did not load: install it (Debian: apt-get install libjs-chart.js)'));
      document.head.appendChild(s);
    });
  }

  const logType = (on) => (on ? 'logarithmic' : 'linear');

  // The chart's y axis follows the box: log scale while it is ticked.
  function followScale(chart, box) {
    box.addEventListener('change', () => {
      chart.options.scales.y.type = logType(box.checked);
      chart.update();
    });
  }

  function bars(canvas, labels, datasets, stacked, logarithmic) {
    return new window.Chart(canvas, {
      type: 'bar',
      data: { labels, datasets },
      options: {
        animation: false,
        scales: {
          x: { stacked },
          y: { stacked, type: logType(logarithmic) },
        },
      },
    });
  }

  async function draw() {
    if (drawn) return;
    const error = $('charts-error');
    try {
      await loadChartJs();
      const res = await fetch('/api/tables');
      const t = await res.json();
      if (!res.ok) throw new Error(t.error);
      let most = 0;
      for (const tier of t.tiers)
        for (const p of Object.keys(tier.by_plies)) most = Math.max(most, Number(p));
      const plies = Array.from({ length: most + 1 }, (_, i) => String(i));
      followScale(bars($('chart-plies'), plies, t.tiers.map((tier, i) => ({
        label: tier.tier,
        data: plies.map((p) => tier.by_plies[p] || 0),
        backgroundColor: palette[i % palette.length],
      })), true, $('plies-log').checked), $('plies-log'));
      bars($('chart-outcomes'), t.tiers.map((tier) => tier.tier), [
        { label: 'wins', data: t.tiers.map((x) => x.wins), backgroundColor: '#1e8449' },
        { label: 'draws', data: t.tiers.map((x) => x.draws), backgroundColor: '#b9770e' },
        { label: 'losses', data: t.tiers.map((x) => x.losses), backgroundColor: '#c0392b' },
      ], true, false);
      if (t.bfs) {
        $('bfs-section').hidden = false;
        const levels = t.bfs.new_states;
        followScale(bars($('chart-bfs'), levels.map((_, i) => String(i)), [
          { label: 'new states', data: levels, backgroundColor: '#1f5fbf' },
        ], false, $('bfs-log').checked), $('bfs-log'));
      }
      drawn = true;
      error.hidden = true;
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }

  function show(which) {
    $('explore').hidden = which !== 'explore';
    $('charts').hidden = which !== 'charts';
    $('show-explore').classList.toggle('current', which === 'explore');
    $('show-charts').classList.toggle('current', which === 'charts');
    if (which === 'charts') draw();
  }

  document.addEventListener('DOMContentLoaded', () => {
    $('show-explore').addEventListener('click', (ev) => { ev.preventDefault(); show('explore'); });
    $('show-charts').addEventListener('click', (ev) => { ev.preventDefault(); show('charts'); });
  });
  return { show };
})();
