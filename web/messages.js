// The page's notes to the user: the message line, the note under the board, and the marks of a
// FEN that cannot be read.
import { $ } from './dom.js';
import { S } from './state.js';

export function message(text) {
  const m = $('message');
  m.textContent = text || '';
  m.hidden = !text;
}

// A note under the board about the last move tried there (an illegal one), cleared by the next.
export function moveNote(text) {
  const m = $('move-note');
  m.textContent = text || '';
  m.hidden = !text;
}

// A FEN that cannot be read: the box is marked wrong, and the board and the move list, which
// still show the previous position, are marked stale until a position is shown again.
export function invalidFen(why) {
  const shown = S.fen ? ` The board still shows the previous position, ${S.fen}.` : '';
  message(`FEN not understood: ${why}.${shown}`);
  const box = $('fen-input');
  box.setAttribute('aria-invalid', 'true');
  $('fen-error').textContent = `Not a FEN of this variant: ${why}.${shown}`;
  $('fen-error').hidden = false;
  document.body.dataset.stale = 'true';
  document.body.dataset.state = 'invalid';
}

export function clearInvalid() {
  $('fen-input').removeAttribute('aria-invalid');
  $('fen-error').hidden = true;
  delete document.body.dataset.stale;
}
