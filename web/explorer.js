// The explore view: one position at a time from /api/position, its moves coloured by value,
// clicked to play; a history for back and forward; the perfect line from /api/line; a box for a
// state in the game's text form; the URL's hash (#key=N or #state=TEXT) is the permalink.
'use strict';

const explorer = (() => {
  const $ = (id) => document.getElementById(id);
  let history = [];  // positions visited, each {key}
  let at = -1;       // index of the one shown
  let playing = null;  // the timer of a perfect line being played

  async function api(path) {
    const res = await fetch(path);
    let body;
    try {
      body = await res.json();
    } catch (e) {
      body = { error: 'the server answered ' + res.status + ' without JSON' };
    }
    if (!res.ok) throw new Error(body.error || ('HTTP ' + res.status));
    return body;
  }

  function showError(message) {
    const e = $('error');
    e.textContent = message;
    e.hidden = !message;
  }

  function stopPlaying() {
    if (playing) clearTimeout(playing);
    playing = null;
    $('perfect').textContent = 'play the perfect line';
  }

  function render(pos) {
    $('board').innerHTML = pos.svg;
    $('side').textContent = pos.side || 'The player';
    const value = $('value');
    value.textContent = pos.value + (pos.tier_solved ? '' : ' (tier not solved here)');
    value.dataset.outcome = pos.outcome;
    $('key').textContent = pos.key;
    $('tier').textContent = pos.tier;
    $('diagram').textContent = pos.diagram;
    const list = $('moves');
    list.replaceChildren();
    for (const m of pos.moves) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.dataset.outcome = m.outcome;
      b.dataset.move = m.move;
      b.title = m.ends_game ? 'this move ends the game' : 'play ' + m.move;
      b.textContent = m.move + ': ' + m.value;
      if (m.best) b.classList.add('best');
      if (m.ends_game) {
        b.classList.add('ends');
        b.disabled = true;
      } else {
        b.addEventListener('click', () => { stopPlaying(); go({ key: m.key }); });
      }
      li.appendChild(b);
      list.appendChild(li);
    }
    if (pos.moves.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'no moves: the game is over';
      list.appendChild(li);
    }
    const link = '#key=' + pos.key;
    $('permalink').href = link;
    window.history.replaceState(null, '', link);
    $('back').disabled = at <= 0;
    $('forward').disabled = at >= history.length - 1;
  }

  // Shows a state ({key} or {state: text}); a new one cuts the forward history.
  async function go(which, remember = true) {
    const query = which.key !== undefined ? 'key=' + encodeURIComponent(which.key)
                                          : 'state=' + encodeURIComponent(which.state);
    let pos;
    try {
      pos = await api('/api/position?' + query);
    } catch (e) {
      showError(e.message);
      stopPlaying();
      return null;
    }
    showError('');
    if (remember) {
      history = history.slice(0, at + 1);
      history.push({ key: pos.key });
      at = history.length - 1;
    }
    render(pos);
    return pos;
  }

  async function step(delta) {
    stopPlaying();
    const next = at + delta;
    if (next < 0 || next >= history.length) return;
    at = next;
    await go(history[at], false);
  }

  async function playPerfectLine() {
    if (playing) return stopPlaying();
    let line;
    try {
      line = await api('/api/line?key=' + history[at].key);
    } catch (e) {
      return showError(e.message);
    }
    const steps = line.steps.slice(1);
    if (steps.length === 0) return showError('no perfect line from here: the value is ' +
                                             line.steps[0].value);
    $('perfect').textContent = 'stop';
    const next = async () => {
      const s = steps.shift();
      if (!s) return stopPlaying();
      await go({ key: s.key });
      playing = steps.length ? setTimeout(next, 700) : null;
      if (!playing) stopPlaying();
    };
    playing = setTimeout(next, 0);
  }

  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.has('key')) return { key: h.get('key') };
    if (h.has('state')) return { state: h.get('state') };
    return { state: 'start' };
  }

  async function start() {
    try {
      const g = await api('/api/game');
      $('game-name').textContent = g.game;
      // The options as given to solve ("3x4 boar"); the full variant (Onitama's lists every
      // card's moves) on hover.
      const options = g.options.join(' ');
      $('game-variant').textContent = options;
      $('game-variant').title = g.variant;
      document.title = g.game + (options ? ' ' + options : '') + ' — Zermelo explorer';
    } catch (e) {
      showError(e.message);
    }
    $('back').addEventListener('click', () => step(-1));
    $('forward').addEventListener('click', () => step(1));
    $('to-start').addEventListener('click', () => { stopPlaying(); go({ state: 'start' }); });
    $('perfect').addEventListener('click', playPerfectLine);
    $('state-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      stopPlaying();
      const text = $('state-input').value.trim();
      if (!text) return showError('type a state first (or "start")');
      go({ state: text });
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.target.tagName === 'INPUT') return;
      if (ev.key === 'ArrowLeft') step(-1);
      if (ev.key === 'ArrowRight') step(1);
    });
    window.addEventListener('hashchange', () => {
      const want = fromHash();
      if (want.key === undefined || String(history[at]?.key) !== want.key) go(want);
    });
    await go(fromHash());
    document.body.dataset.ready = 'yes';
  }

  return { start, go };
})();

document.addEventListener('DOMContentLoaded', explorer.start);
