// Set-up mode: pieces put on the board or taken off with the palette, the side to move chosen,
// the board cleared or set to the start; each change is shown as a new position.
import { VARIANTS, parseFen, writeFen } from './board.js';
import { $ } from './dom.js';
import { S } from './state.js';
import { renderBoard } from './board-view.js';
import { show } from './show.js';

export function setSetup(on) {
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

// A click on a square in set-up mode: the palette's piece put there, or taken off when it is
// already there (or the palette's eraser is chosen).
export function setupClick(name) {
  const p = document.querySelector('input[name=palette]:checked').value;
  if (p === 'x' || S.pos.pieces.get(name) === p) S.pos.pieces.delete(name);
  else S.pos.pieces.set(name, p);
  setupChanged();
}

export function initSetup() {
  $('setup-toggle').addEventListener('click', () => setSetup(!S.setup));
  $('setup-done').addEventListener('click', () => setSetup(false));
  $('setup-clear').addEventListener('click', () => {
    S.pos.pieces.clear();
    setupChanged();
  });
  $('setup-start').addEventListener('click', () => {
    const p = parseFen(S.variant, VARIANTS[S.variant].start);
    S.pos.pieces = p.pieces;
    S.pos.side = 'W';
    setupChanged();
  });
  for (const r of document.querySelectorAll('input[name=setup-side]')) {
    r.addEventListener('change', () => {
      S.pos.side = r.value;
      setupChanged();
    });
  }
}
