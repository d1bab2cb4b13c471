// The explorer page: board, moves, principal variation, set-up, counting rules. docs/API.md.
import { VARIANTS, parseFen, writeFen, drawBoard, squareFromPoint, svgPoint } from './board.js';
import { api, errorText, probeUrl } from './api.js';
import { initGames } from './game.js';
import { DEFAULT_COUNTERS, detectVariant, hashOf, decode, fromLocation } from './url.js';
import { pvPdn, pvFileName } from './pdn.js';
import { $, WDL, SIDE, moveButton } from './dom.js';
import { readCounters, writeCounters, showVerdict } from './rules.js';
import { initSolve, setSolveLimits, solveFor } from './solve.js';

const S = {
  variant: 'international', fen: '', pos: null, answer: null, error: '',
  line: [], cursor: 0, flipped: false, names: true, setup: false,
  sel: null, via: [], preview: null, anim: null, status: null, seq: 0, lastFen: {},
  pdnUrl: '',
};

// ---- messages ----
function message(text) {
  const m = $('message');
  m.textContent = text || '';
  m.hidden = !text;
}

// A note under the board about the last move tried there (an illegal one), cleared by the next.
function moveNote(text) {
  const m = $('move-note');
  m.textContent = text || '';
  m.hidden = !text;
}

// A FEN that cannot be read: the box is marked wrong, and the board and the move list, which
// still show the previous position, are marked stale until a position is shown again.
function invalidFen(why) {
  const shown = S.fen ? ` The board still shows the previous position, ${S.fen}.` : '';
  message(`FEN not understood: ${why}.${shown}`);
  const box = $('fen-input');
  box.setAttribute('aria-invalid', 'true');
  $('fen-error').textContent = `Not a FEN of this variant: ${why}.${shown}`;
  $('fen-error').hidden = false;
  document.body.dataset.stale = 'true';
  document.body.dataset.state = 'invalid';
}

function clearInvalid() {
  $('fen-input').removeAttribute('aria-invalid');
  $('fen-error').hidden = true;
  delete document.body.dataset.stale;
}

// Shows `fen` of `variant`: board, URL, then the API's answers. how.history: push|replace|none;
// how.line: reset (a new line starts here) | keep (S.line[S.cursor] is this position);
// how.counters: the counters of the position (international), else those of the line's entry
// when kept, else the defaults (a position set up or pasted starts its counts afresh).
async function show(variant, fen, how = {}) {
  let pos;
  try {
    pos = parseFen(variant, fen);
  } catch (e) {
    invalidFen(e.message);
    return false;
  }
  clearInvalid();
  moveNote('');
  if (variant !== S.variant) {
    S.variant = variant;
    S.sel = null;
  }
  S.pos = pos;
  S.fen = writeFen(variant, pos);
  S.lastFen[variant] = S.fen;
  const reset = (how.line || 'reset') === 'reset';
  if (variant === 'international') {
    const keep = !reset && S.line[S.cursor] && S.line[S.cursor].counters;
    writeCounters(how.counters || keep || { ...DEFAULT_COUNTERS, rules: $('rules').value || 'fmjd' });
  }
  const counters = variant === 'international' ? readCounters() : null;
  if (reset) {
    S.line = [{ fen: S.fen, counters }];
    S.cursor = 0;
  } else if (S.line[S.cursor]) Object.assign(S.line[S.cursor], { fen: S.fen, counters });
  S.sel = null; S.via = []; closeChooser();
  const url = hashOf(variant, S.fen, counters);
  const h = how.history || 'push';
  if (h === 'push' && decode(location.hash) !== url) history.pushState({ variant, fen: S.fen, counters }, '', url);
  else if (h !== 'none') history.replaceState({ variant, fen: S.fen, counters }, '', url);
  $('fen-input').value = S.fen;
  syncVariantUi();
  S.preview = null;
  S.answer = null;
  S.error = '';
  document.body.dataset.state = 'loading';
  document.body.dataset.fen = S.fen;
  render();
  // The game panel marks the ply shown when the line is its game's (game.js).
  document.dispatchEvent(new CustomEvent('dtb:shown', { detail: { owner: S.line.owner, cursor: S.cursor } }));
  const seq = ++S.seq;
  const shown = { variant, fen: S.fen, side: pos.side };
  solveFor(shown, null);
  const r = await api(probeUrl(variant, S.fen, counters));
  if (seq !== S.seq) return false;
  // Beyond the tables (422): the server may still prove the value with a search.
  solveFor(shown, r.status === 422);
  // A FEN typed wrong meanwhile keeps its message and the stale marks.
  const stale = !!document.body.dataset.stale;
  if (r.ok) {
    S.answer = r.data;
    if (!stale) message('');
  } else {
    S.error = errorText(r);
    if (!stale) message(`No analysis for this position: ${S.error}`);
    // 400: the server read the FEN but no game can reach it (a man on its promotion row, ...).
    if (r.status === 400) $('fen-input').setAttribute('aria-invalid', 'true');
  }
  document.body.dataset.state = stale ? 'invalid' : r.ok ? 'ready' : 'error';
  render();
  showVerdict(S.variant, S.fen, S.pos.side, (text) => playMove(findMove(text)));
  return r.ok;
}

function syncVariantUi() {
  $(`variant-${S.variant}`).checked = true;
  $('rules-panel').hidden = S.variant !== 'international';
  const v = S.status && (S.status.variants || []).find((x) => x.variant === S.variant);
  const note = $('variant-note');
  note.hidden = !(v && v.tables === false);
  note.textContent = note.hidden ? '' : `No tables for this variant (${VARIANTS[S.variant].label}) on this server: the board works, but no values can be shown.`;
  $(`side-${S.pos.side.toLowerCase()}`).checked = true;
}

// ---- rendering ----
function moves() { return (S.answer && Array.isArray(S.answer.moves)) ? S.answer.moves : []; }
const lastOf = (a) => a[a.length - 1];
const inner = (m) => (Array.isArray(m.path) ? m.path.slice(1, -1) : []);

function candidates() {
  return moves().filter((m) => Array.isArray(m.path) && m.path[0] === S.sel && S.via.every((v) => inner(m).includes(v)));
}

function renderBoard() {
  const origins = new Set(S.setup ? [] : moves().filter((m) => m.path).map((m) => m.path[0]));
  const entry = S.line[S.cursor];
  drawBoard($('board'), {
    variant: S.variant, pos: S.pos, flipped: S.flipped, names: S.names, selected: S.sel,
    targets: S.sel ? new Set(candidates().map((m) => lastOf(m.path))) : null,
    via: new Set(S.via), origins,
    last: S.preview || (entry && entry.path) || null, anim: S.anim,
  });
  S.anim = null;
  const pieces = [...S.pos.pieces].map(([sq, p]) => `${p[0] === 'w' ? 'white' : 'black'} ${p[1] === 'k' ? 'king' : 'man'} ${sq}`);
  $('board').setAttribute('aria-label', `${VARIANTS[S.variant].label} board, ${SIDE[S.pos.side]} to move: ${pieces.join(', ') || 'empty'}`);
}

function valueText(wdl, dtw, dtc) {
  let t = WDL[wdl] || String(wdl);
  if (dtw != null) t += `, DTW ${dtw}`;
  if (dtc != null) t += `, DTC ${dtc}`;
  return t;
}

function renderAnalysis() {
  const a = S.answer;
  const pv = $('position-value');
  pv.dataset.wdl = a ? a.wdl : '';
  pv.className = a ? `wdl-${a.wdl}` : '';
  if (a) {
    const end = a.wdl === 'draw' ? 'A draw with best play.' : `${SIDE[S.pos.side]} ${a.wdl === 'win' ? 'wins' : 'loses'} in ${a.dtw} plies (DTW); DTC ${a.dtc}.`;
    pv.textContent = `${SIDE[S.pos.side]} to move: ${WDL[a.wdl] || a.wdl}. ${end}`;
    if (!moves().length) pv.textContent += ' No legal move.';
  } else pv.textContent = S.error ? `${SIDE[S.pos.side]} to move. No value: ${S.error}` : `${SIDE[S.pos.side]} to move. Loading...`;

  const table = $('moves');
  table.dataset.fen = a ? S.fen : '';
  table.dataset.count = String(moves().length);
  // The counters the answer's moves were counted from (international): reversible/endgame/small.
  const k = a && a.counters;
  table.dataset.counters = k ? `${k.reversible}/${k.endgame ?? ''}/${k.small ?? ''}` : '';
  const body = $('moves-body');
  body.replaceChildren();
  S.preview = null;
  for (const m of moves()) {
    const tr = document.createElement('tr');
    tr.className = `wdl-${m.wdl}`;
    Object.assign(tr.dataset, { move: m.move, wdl: m.wdl, dtw: m.dtw ?? '', dtc: m.dtc ?? '' });
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move-btn';
    b.textContent = m.move;
    b.setAttribute('aria-label', `Play ${m.move}: ${valueText(m.wdl, m.dtw, m.dtc)}`);
    b.addEventListener('click', () => playMove(m));
    // A mouse over a row shows the move on the board; a touch is a tap, not a hover: it would
    // leave the mark behind, as a row replaced by the next answer never sees the pointer leave.
    tr.addEventListener('pointerenter', (e) => { if (e.pointerType === 'mouse') { S.preview = m.path || null; renderBoard(); } });
    tr.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse' && S.preview) { S.preview = null; renderBoard(); } });
    const notes = [];
    if (m.captures) notes.push(`captures ${m.captures}`);
    if (m.promotes) notes.push('promotes');
    const cells = [b, WDL[m.wdl] || m.wdl, m.dtw ?? '-', m.dtc ?? '-', notes.join(', ')];
    for (const c of cells) {
      const td = document.createElement('td');
      if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
      tr.appendChild(td);
    }
    tr.children[1].className = 'value';
    body.appendChild(tr);
  }
  renderLine();
}

function renderLine() {
  const line = $('line');
  line.replaceChildren();
  if (S.line.length > 1) {
    line.append('Line: ');
    line.appendChild(moveButton('start', () => goto(0), { 'data-line-index': '0', 'aria-current': S.cursor === 0 ? 'step' : 'false' }));
    S.line.forEach((e, i) => {
      if (!i) return;
      line.append(' ');
      line.appendChild(moveButton(e.move || '?', () => goto(i), { 'data-line-index': String(i), 'aria-current': S.cursor === i ? 'step' : 'false' }));
    });
  }
  const pv = $('pv');
  pv.replaceChildren();
  const list = S.answer && Array.isArray(S.answer.pv) ? S.answer.pv : [];
  pv.dataset.length = String(list.length);
  if (S.answer) {
    pv.append(list.length ? 'Best line: ' : 'Best line: none (a draw, or the game is over).');
    list.forEach((t, i) => {
      pv.appendChild(moveButton(t, () => playPv(i + 1), { 'data-pv-index': String(i) }));
      pv.append(' ');
    });
  }
  renderPvExport(list);
  $('nav-back').disabled = $('nav-start').disabled = S.cursor === 0;
  $('nav-forward').disabled = !(S.cursor < S.line.length - 1 || list.length);
  $('nav-end').disabled = !list.length;
}

// The best line as a PDN game: a copy button and a download link (a Blob URL, renewed with the
// line).
function renderPvExport(list) {
  const box = $('pv-export');
  if (S.pdnUrl) { URL.revokeObjectURL(S.pdnUrl); S.pdnUrl = ''; }
  box.hidden = !list.length;
  const a = $('pv-download');
  if (!list.length) { a.removeAttribute('href'); box.dataset.pdn = ''; return; }
  const text = pvPdn(S.variant, S.fen, list, S.answer.wdl);
  box.dataset.pdn = text;
  S.pdnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-draughts-pdn' }));
  a.href = S.pdnUrl;
  a.download = pvFileName(S.variant, S.fen);
}

async function copyPv() {
  const text = $('pv-export').dataset.pdn;
  if (!text) return;
  const b = $('pv-copy');
  try {
    await navigator.clipboard.writeText(text);
    b.textContent = 'Copied';
  } catch {
    b.textContent = 'Copy failed: use the download';
  }
  setTimeout(() => { b.textContent = 'Copy PDN'; }, 1500);
}

function render() {
  renderBoard();
  renderAnalysis();
}

// ---- playing ----
function playMove(m) {
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
function goto(i) {
  if (i < 0 || i >= S.line.length) return Promise.resolve(false);
  S.anim = i === S.cursor + 1 ? S.line[i].path : null;
  S.cursor = i;
  return show(S.variant, S.line[i].fen, { line: 'keep', history: 'replace', counters: S.line[i].counters });
}

function findMove(text) { return moves().find((m) => m.move === text); }

async function forward() {
  if (S.cursor < S.line.length - 1) return goto(S.cursor + 1);
  const pv = S.answer && S.answer.pv;
  if (pv && pv.length) return playMove(findMove(pv[0]));
  return false;
}

async function playPv(n) {
  for (let i = 0; i < n; i++) {
    const pv = S.answer && S.answer.pv;
    if (!pv || !pv.length) break;
    if (!(await playMove(findMove(pv[0])))) break;
  }
}

// ---- board input ----
function closeChooser() {
  $('route-chooser').hidden = true;
  $('route-list').replaceChildren();
}

function openChooser(list) {
  const box = $('route-list');
  box.replaceChildren();
  for (const m of list) {
    box.appendChild(moveButton(`${m.path.join('x')} (${WDL[m.wdl] || m.wdl})`, () => { S.sel = null; closeChooser(); playMove(m); },
      { 'data-route': m.move }));
  }
  $('route-chooser').hidden = false;
}

function onSquare(name) {
  if (!name) return;
  if (S.setup) return setupClick(name);
  const all = moves();
  if (S.sel) {
    const cand = candidates();
    const dest = cand.filter((m) => lastOf(m.path) === name);
    if (dest.length === 1) {
      S.sel = null; S.via = [];
      playMove(dest[0]);
      return;
    }
    if (dest.length > 1) {
      renderBoard();
      openChooser(dest);
      return;
    }
    if (cand.some((m) => inner(m).includes(name)) && !S.via.includes(name)) {
      S.via.push(name);
      renderBoard();
      return;
    }
  }
  closeChooser();
  const origin = all.some((m) => m.path && m.path[0] === name);
  const own = (S.pos.pieces.get(name) || '')[0] === S.pos.side.toLowerCase();
  if (S.answer && S.sel && S.sel !== name && !origin) illegal(`${S.sel}-${name}`, all);
  else if (S.answer && !S.sel && own && !origin) illegal(`the piece on ${name} cannot move`, all);
  else moveNote('');
  S.via = [];
  S.sel = origin && S.sel !== name ? name : null;
  renderBoard();
}

// A move tried on the board that the position does not allow: said under the board, with the
// compulsory capture when that is why.
function illegal(what, all) {
  const capture = all.some((m) => m.captures);
  const why = !all.length ? 'no move is legal here'
    : capture ? `a capture is compulsory (${[...new Set(all.map((m) => m.move))].slice(0, 6).join(', ')})`
    : 'not a legal move here';
  moveNote(`Illegal move: ${what}; ${why}.`);
}

let drag = null, suppressClick = false;
function initBoardInput() {
  const svg = $('board');
  svg.addEventListener('click', (e) => {
    if (suppressClick) { suppressClick = false; return; }
    const t = e.target.closest && e.target.closest('[data-square]');
    onSquare(t ? t.getAttribute('data-square') : squareFromPoint(svg, S.variant, S.flipped, e.clientX, e.clientY));
  });
  svg.addEventListener('pointerdown', (e) => {
    if (S.setup || e.button !== 0) return;
    const sq = squareFromPoint(svg, S.variant, S.flipped, e.clientX, e.clientY);
    if (!sq || !moves().some((m) => m.path && m.path[0] === sq)) return;
    const p = svgPoint(svg, e.clientX, e.clientY);
    drag = { sq, x: p.x, y: p.y, id: e.pointerId, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const p = svgPoint(svg, e.clientX, e.clientY);
    if (!drag.moved && Math.hypot(p.x - drag.x, p.y - drag.y) < 0.3) return;
    if (!drag.moved) {
      drag.moved = true;
      svg.setPointerCapture(e.pointerId);
      S.sel = drag.sq; S.via = [];
      renderBoard();
    }
    const g = svg.querySelector(`[data-piece-square="${drag.sq}"]`);
    if (g) { g.setAttribute('transform', `translate(${p.x} ${p.y})`); g.classList.add('dragging'); svg.appendChild(g); }
  });
  const end = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const to = e.type === 'pointerup' ? squareFromPoint(svg, S.variant, S.flipped, e.clientX, e.clientY) : null;
    if (to && to !== d.sq) onSquare(to); else renderBoard();
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
}

// ---- set-up ----
function setSetup(on) {
  S.setup = on;
  $('setup-panel').hidden = !on;
  $('setup-toggle').setAttribute('aria-pressed', String(on));
  $('setup-toggle').textContent = on ? 'Leave set-up' : 'Set up a position';
  document.body.classList.toggle('setup', on);
  S.sel = null;
  renderBoard();
}

function setupChanged() {
  show(S.variant, writeFen(S.variant, S.pos), { history: 'replace' });
}

function setupClick(name) {
  const p = document.querySelector('input[name=palette]:checked').value;
  if (p === 'x' || S.pos.pieces.get(name) === p) S.pos.pieces.delete(name);
  else S.pos.pieces.set(name, p);
  setupChanged();
}

// ---- status ----
async function loadStatus() {
  const r = await api('api/v1/status');
  if (!r.ok) { $('server-status').textContent = `Server status unknown: ${errorText(r)}`; return; }
  S.status = r.data;
  setSolveLimits(r.data.solve);
  const parts = (r.data.variants || []).map((v) => `${v.variant}: ${v.tables ? `up to ${v.largest_pieces} pieces` : 'no tables'}`);
  $('server-status').textContent = `dtb ${r.data.version || ''} · ${parts.join(' · ')}`;
  const intl = (r.data.variants || []).find((v) => v.variant === 'international');
  if (intl && Array.isArray(intl.rule_sets) && intl.rule_sets.length) {
    const sel = $('rules'), cur = sel.value;
    sel.replaceChildren(...intl.rule_sets.map((n) => new Option(n === 'none' ? 'none' : n.toUpperCase(), n)));
    if (intl.rule_sets.includes(cur)) sel.value = cur;
  }
  if (S.pos) syncVariantUi();
}

export function largestPieces(variant) {
  const v = S.status && (S.status.variants || []).find((x) => x.variant === variant);
  return v ? v.largest_pieces || 0 : 4;
}

// ---- wiring ----
// Counters typed in are sent once the typing pauses.
let adjTimer = 0;
function init() {
  initBoardInput();
  initSolve();
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('fen-input').value.trim();
    show(detectVariant(text) || S.variant, text);
  });
  $('fen-input').addEventListener('paste', () => setTimeout(() => $('fen-form').requestSubmit(), 0));
  $('fen-input').addEventListener('input', () => $('fen-input').removeAttribute('aria-invalid'));
  $('fen-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(S.fen); message(''); } catch {
      $('fen-input').select(); document.execCommand('copy');
    }
    $('fen-copy').textContent = 'Copied';
    setTimeout(() => { $('fen-copy').textContent = 'Copy'; }, 1200);
  });
  for (const r of document.querySelectorAll('input[name=variant]')) {
    r.addEventListener('change', () => {
      const v = r.value;
      show(v, S.lastFen[v] || VARIANTS[v].example);
    });
  }
  $('flip').addEventListener('click', () => { S.flipped = !S.flipped; $('board').dataset.flipped = String(S.flipped); renderBoard(); });
  $('show-names').addEventListener('change', (e) => { S.names = e.target.checked; renderBoard(); });
  $('show-names').checked = S.names;
  $('pv-copy').addEventListener('click', copyPv);
  $('setup-toggle').addEventListener('click', () => setSetup(!S.setup));
  $('setup-done').addEventListener('click', () => setSetup(false));
  $('setup-clear').addEventListener('click', () => { S.pos.pieces.clear(); setupChanged(); });
  $('setup-start').addEventListener('click', () => {
    const p = parseFen(S.variant, VARIANTS[S.variant].start);
    S.pos.pieces = p.pieces; S.pos.side = 'W';
    setupChanged();
  });
  for (const r of document.querySelectorAll('input[name=setup-side]')) {
    r.addEventListener('change', () => { S.pos.side = r.value; setupChanged(); });
  }
  $('route-cancel').addEventListener('click', () => { closeChooser(); S.sel = null; S.via = []; renderBoard(); });
  $('nav-start').addEventListener('click', () => goto(0));
  $('nav-back').addEventListener('click', () => goto(S.cursor - 1));
  $('nav-forward').addEventListener('click', () => forward());
  $('nav-end').addEventListener('click', () => playPv(500));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowLeft') { e.preventDefault(); goto(S.cursor - 1); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); forward(); }
    else if (e.key === 'Escape') { closeChooser(); S.sel = null; S.via = []; renderBoard(); }
  });
  // Counters typed in: they belong to the position shown (its URL and line entry), and the moves'
  // counters after are asked again.
  const countersEdited = () => {
    if (S.variant === 'international') show(S.variant, S.fen, { line: 'keep', history: 'replace', counters: readCounters() });
  };
  $('rules-form').addEventListener('input', () => { clearTimeout(adjTimer); adjTimer = setTimeout(countersEdited, 250); });
  $('rules-form').addEventListener('submit', (e) => { e.preventDefault(); clearTimeout(adjTimer); countersEdited(); });
  window.addEventListener('popstate', (e) => {
    const st = e.state && VARIANTS[e.state.variant] ? e.state : fromLocation();
    const i = st.variant === S.variant ? S.line.findIndex((x) => x.fen === st.fen) : -1;
    if (i >= 0) { S.cursor = i; show(st.variant, st.fen, { history: 'none', line: 'keep', counters: st.counters }); }
    else show(st.variant, st.fen, { history: 'none', counters: st.counters });
  });
  initGames({
    api, largestPieces,
    // Shows a game: its positions become the line, `index` the current one; counters[k] (when the
    // server gave them) the game's counters at ply k, under `rules`; `owner` names the game in the
    // 'dtb:shown' events while the line is its own.
    showLine(fens, moveTexts, paths, index, counters, rules, owner) {
      S.line = fens.map((fen, i) => ({
        fen, move: i ? moveTexts[i - 1] : null, path: i ? paths[i - 1] : null,
        counters: counters && counters[i] ? { ...counters[i], rules: rules || 'fmjd' } : null,
      }));
      S.line.owner = owner;
      S.cursor = Math.min(index, S.line.length - 1);
      if (S.setup) setSetup(false);
      return show('international', S.line[S.cursor].fen, { line: 'keep', counters: S.line[S.cursor].counters });
    },
  });
  const start = fromLocation();
  S.pos = parseFen(start.variant, VARIANTS[start.variant].example);
  show(start.variant, start.fen, { history: 'replace', counters: start.counters }).then(() => {
    if (!S.fen) show(start.variant, VARIANTS[start.variant].example, { history: 'replace' });
  });
  loadStatus();
}

init();
