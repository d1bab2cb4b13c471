// The Solve button of a position beyond the tables: a proof search on the server within its time
// limit (GET api/v1/{variant}/solve, docs/API.md), its result and best move. The game's value is
// asked (no counting rules), as the position's value line shows it.
import { api, errorText } from './api.js';
import { $, SIDE } from './dom.js';

const STOPPED = { time: 'the time limit', nodes: 'the node limit', depth: 'a line reached the depth limit' };
let shown = null; // {variant, fen, side}: the position the button solves, null when hidden
let running = false; // a solve is on its way: further clicks are ignored
let seq = 0; // answers for a position no longer shown are dropped
let limits = { default_seconds: 5, max_seconds: 30 };

// The server's limits (/api/v1/status's "solve"): the time choices offered.
export function setSolveLimits(l) {
  if (!l || !(l.max_seconds > 0)) return;
  limits = l;
  const sel = $('solve-time'),
    cur = Number(sel.value);
  const choices = [...new Set([l.default_seconds, 10, 30, l.max_seconds])]
    .filter((s) => s > 0 && s <= l.max_seconds)
    .sort((a, b) => a - b);
  sel.replaceChildren(...choices.map((s) => new Option(`${s} s`, String(s))));
  sel.value = String(choices.includes(cur) ? cur : Math.min(l.default_seconds, l.max_seconds));
}

// Called for each position shown (`pos`: {variant, fen, side}): `beyond` true when the tables do
// not reach it (the value route answered 422), false when they do, null while that answer is
// awaited. The button and its result stay while the same position is shown (counters edited, the
// line stepped back to it); a solve running for a position no longer shown is forgotten.
export function solveFor(pos, beyond) {
  const same = shown && shown.variant === pos.variant && shown.fen === pos.fen;
  if (beyond === true && same) return;
  if (beyond === null && same) return;
  seq++;
  running = false;
  shown = beyond ? pos : null;
  const box = $('solve-box');
  box.hidden = !shown;
  box.dataset.state = shown ? 'offered' : '';
  box.dataset.fen = shown ? pos.fen : '';
  box.dataset.requests = '0';
  delete box.dataset.answer;
  $('solve-result').replaceChildren();
  setButton(false);
}

function setButton(busy, text) {
  const b = $('solve-button');
  b.disabled = busy;
  b.setAttribute('aria-busy', String(busy));
  b.textContent = text || 'Solve';
  $('solve-time').disabled = busy;
}

async function solve() {
  if (running || !shown) return;
  running = true;
  const mine = ++seq,
    pos = shown,
    box = $('solve-box');
  const seconds = Number($('solve-time').value) || limits.default_seconds;
  box.dataset.state = 'running';
  box.dataset.requests = String(Number(box.dataset.requests || 0) + 1);
  $('solve-result').replaceChildren();
  const started = performance.now();
  const tick = () =>
    setButton(true, `Solving... ${Math.floor((performance.now() - started) / 1000)} s of at most ${seconds} s`);
  tick();
  const timer = setInterval(tick, 250);
  const r = await api(`api/v1/${pos.variant}/solve?fen=${encodeURIComponent(pos.fen)}&time=${seconds}`);
  clearInterval(timer);
  if (mine !== seq) return;
  running = false;
  setButton(false, 'Solve again');
  if (!r.ok) {
    box.dataset.state = 'error';
    $('solve-result').append(para(`Could not solve: ${errorText(r)}`, 'error', 'solve-error'));
    return;
  }
  box.dataset.state = 'done';
  box.dataset.answer = r.data.answer;
  showResult(r.data, pos.side);
}

function para(text, cls, id) {
  const p = document.createElement('p');
  p.textContent = text;
  if (cls) p.className = cls;
  if (id) p.id = id;
  return p;
}

// The answer for the side to move, how it was found, and the best move and line when proven.
function showResult(d, side) {
  const out = $('solve-result');
  const who = SIDE[side];
  const verb = { win: 'wins', draw: 'draws', loss: 'loses' }[d.answer];
  const secs = Number(d.seconds);
  const work = `${Number(d.nodes).toLocaleString('en')} nodes, ${secs < 0.01 ? 'under 0.01' : secs.toFixed(2)} s`;
  let text;
  if (d.answer === 'unresolved') {
    const bound =
      d.lower === 'draw'
        ? 'at least a draw (a loss is disproven)'
        : d.upper === 'draw'
          ? 'at most a draw (a win is disproven)'
          : 'nothing proven';
    text = `Unresolved for ${who}: ${bound}; stopped by ${STOPPED[d.stopped] || d.stopped} (${work}).`;
  } else if (d.source === 'tables') {
    text = `From the tables: ${who} to move ${verb}.`;
  } else if (d.source === 'terminal') {
    text = `${who} to move ${verb}: the game is over here.`;
  } else {
    text = `Proven: ${who} to move ${verb} (${work}).`;
  }
  out.append(para(text, `verdict wdl-${d.answer}`, 'solve-answer'));
  if (d.best_move) out.append(para(`Best move: ${d.best_move}`, 'movetext', 'solve-best'));
  if (Array.isArray(d.pv) && d.pv.length > 1) out.append(para(`Line: ${d.pv.join(' ')}`, 'movetext', 'solve-pv'));
}

export function initSolve() {
  $('solve-button').addEventListener('click', solve);
  setSolveLimits(limits);
}
