// Showing a position: the board and the address at once, then the API's value, moves, verdict
// under the counting rules and the Solve button once they come.
import { parseFen, writeFen } from './board.js';
import { $ } from './dom.js';
import { api, errorText, probeUrl } from './api.js';
import { DEFAULT_COUNTERS, writeLocation } from './url.js';
import { readCounters, writeCounters, showVerdict } from './rules.js';
import { solveFor } from './solve.js';
import { S, findMove } from './state.js';
import { message, moveNote, invalidFen, clearInvalid } from './messages.js';
import { closeChooser } from './route-chooser.js';
import { render, syncVariantUi } from './view.js';
import { playMove } from './line.js';

// Shows `fen` of `variant`: board, URL, then the API's answers. how.history: push|replace|none;
// how.line: reset (a new line starts here) | keep (S.line[S.cursor] is this position);
// how.counters: the counters of the position (international), else those of the line's entry
// when kept, else the defaults (a position set up or pasted starts its counts afresh).
// Resolves to whether the API answered with the position's value.
export async function show(variant, fen, how = {}) {
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
  S.sel = null;
  S.via = [];
  closeChooser();
  writeLocation(how.history || 'push', variant, S.fen, counters);
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
