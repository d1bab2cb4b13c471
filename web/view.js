// The page drawn from the state: the board, the position's value and moves, the line; and the
// variant's controls.
import { VARIANTS } from './board.js';
import { $ } from './dom.js';
import { S } from './state.js';
import { renderBoard } from './board-view.js';
import { renderAnalysis } from './analysis-view.js';
import { renderLine } from './line-view.js';

export function render() {
  renderBoard();
  renderAnalysis();
  renderLine();
}

// The variant and side-to-move buttons, the rules panel (international only), and a note when
// the server has no tables for the variant.
export function syncVariantUi() {
  $(`variant-${S.variant}`).checked = true;
  $('rules-panel').hidden = S.variant !== 'international';
  const v = S.status && (S.status.variants || []).find((x) => x.variant === S.variant);
  const note = $('variant-note');
  note.hidden = !(v && v.tables === false);
  note.textContent = note.hidden
    ? ''
    : `No tables for this variant (${VARIANTS[S.variant].label}) on this server: the board works, but no values can be shown.`;
  $(`side-${S.pos.side.toLowerCase()}`).checked = true;
}
