// The line of positions the board steps along: a move played (on the line or off it), a step
// back or forward, the best line followed, a judged game's line, the browser's Back and Forward.
import { VARIANTS } from './board.js';
import { fromLocation } from './url.js';
import { readCounters } from './rules.js';
import { S, findMove } from './state.js';
import { message } from './messages.js';
import { show } from './show.js';
import { setSetup } from './setup.js';

export function playMove(m) {
  if (!m || !m.fen) {
    message('The answer gives no position after this move.');
    return Promise.resolve(false);
  }
  const next = S.line[S.cursor + 1];
  S.anim = m.path || null;
  // The counters after the move, as the server gives them (the probe asked with counters).
  const counters = m.counters ? { ...m.counters, rules: (S.answer && S.answer.rules) || readCounters().rules } : null;
  if (next && next.move === m.move) {
    S.cursor++;
    if (counters) next.counters = counters;
  } else {
    // A move off the line: the line is the page's own from here (no longer a judged game's).
    S.line = S.line.slice(0, S.cursor + 1);
    S.line.push({ fen: m.fen, move: m.move, path: m.path, counters });
    S.cursor = S.line.length - 1;
  }
  return show(S.variant, m.fen, { line: 'keep', counters });
}

// Steps along the line replace the URL rather than push it: Back returns to the positions
// reached by playing or loading, as in an analysis board.
export function goto(i) {
  if (i < 0 || i >= S.line.length) return Promise.resolve(false);
  S.anim = i === S.cursor + 1 ? S.line[i].path : null;
  S.cursor = i;
  return show(S.variant, S.line[i].fen, { line: 'keep', history: 'replace', counters: S.line[i].counters });
}

// One step forward: the line's next position, else the best line's first move.
export async function forward() {
  if (S.cursor < S.line.length - 1) return goto(S.cursor + 1);
  const pv = S.answer && S.answer.pv;
  if (pv && pv.length) return playMove(findMove(pv[0]));
  return false;
}

// Plays the first `n` moves of the best line, asking for it again after each.
export async function playPv(n) {
  for (let i = 0; i < n; i++) {
    const pv = S.answer && S.answer.pv;
    if (!pv || !pv.length) break;
    if (!(await playMove(findMove(pv[0])))) break;
  }
}

// Shows a game: its positions become the line, `index` the current one; counters[k] (when the
// server gave them) the game's counters at ply k, under `rules`; `owner` names the game in the
// 'dtb:shown' events while the line is its own.
export function showLine(fens, moveTexts, paths, index, counters, rules, owner) {
  S.line = fens.map((fen, i) => ({
    fen,
    move: i ? moveTexts[i - 1] : null,
    path: i ? paths[i - 1] : null,
    counters: counters && counters[i] ? { ...counters[i], rules: rules || 'fmjd' } : null,
  }));
  S.line.owner = owner;
  S.cursor = Math.min(index, S.line.length - 1);
  if (S.setup) setSetup(false);
  return show('international', S.line[S.cursor].fen, { line: 'keep', counters: S.line[S.cursor].counters });
}

// The browser's Back or Forward: a position of the line is stepped to, any other starts a line.
export function onPopState(e) {
  const st = e.state && VARIANTS[e.state.variant] ? e.state : fromLocation();
  const i = st.variant === S.variant ? S.line.findIndex((x) => x.fen === st.fen) : -1;
  if (i >= 0) {
    S.cursor = i;
    show(st.variant, st.fen, { history: 'none', line: 'keep', counters: st.counters });
  } else show(st.variant, st.fen, { history: 'none', counters: st.counters });
}
