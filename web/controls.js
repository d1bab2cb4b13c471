// The page's other controls: the variant, the board's flip and square names, the PDN copy, the
// step buttons and arrow keys, and the counters typed in the rules panel.
import { VARIANTS } from './board.js';
import { $ } from './dom.js';
import { readCounters } from './rules.js';
import { S } from './state.js';
import { show } from './show.js';
import { renderBoard } from './board-view.js';
import { copyPv } from './line-view.js';
import { goto, forward, playPv } from './line.js';
import { cancelSelection } from './board-input.js';

// Counters typed in are sent once the typing pauses.
let adjTimer = 0;

export function initControls() {
  for (const r of document.querySelectorAll('input[name=variant]')) {
    r.addEventListener('change', () => {
      const v = r.value;
      show(v, S.lastFen[v] || VARIANTS[v].example);
    });
  }
  $('flip').addEventListener('click', () => {
    S.flipped = !S.flipped;
    $('board').dataset.flipped = String(S.flipped);
    renderBoard();
  });
  $('show-names').addEventListener('change', (e) => {
    S.names = e.target.checked;
    renderBoard();
  });
  $('show-names').checked = S.names;
  $('pv-copy').addEventListener('click', copyPv);
  $('route-cancel').addEventListener('click', cancelSelection);
  $('nav-start').addEventListener('click', () => goto(0));
  $('nav-back').addEventListener('click', () => goto(S.cursor - 1));
  $('nav-forward').addEventListener('click', () => forward());
  $('nav-end').addEventListener('click', () => playPv(500));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      goto(S.cursor - 1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      forward();
    } else if (e.key === 'Escape') cancelSelection();
  });
  // Counters typed in: they belong to the position shown (its URL and line entry), and the moves'
  // counters after are asked again.
  const countersEdited = () => {
    if (S.variant === 'international')
      show(S.variant, S.fen, { line: 'keep', history: 'replace', counters: readCounters() });
  };
  $('rules-form').addEventListener('input', () => {
    clearTimeout(adjTimer);
    adjTimer = setTimeout(countersEdited, 250);
  });
  $('rules-form').addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(adjTimer);
    countersEdited();
  });
}
