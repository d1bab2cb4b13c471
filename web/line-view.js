// The line of positions (played, loaded or a game's), the best line from the position shown with
// its PDN copy and download, and the step buttons under the board.
import { $, moveButton } from './dom.js';
import { pvPdn, pvFileName } from './pdn.js';
import { S } from './state.js';
import { goto, playPv } from './line.js';

export function renderLine() {
  const line = $('line');
  line.replaceChildren();
  if (S.line.length > 1) {
    line.append('Line: ');
    line.appendChild(
      moveButton('start', () => goto(0), { 'data-line-index': '0', 'aria-current': S.cursor === 0 ? 'step' : 'false' }),
    );
    S.line.forEach((e, i) => {
      if (!i) return;
      line.append(' ');
      line.appendChild(
        moveButton(e.move || '?', () => goto(i), {
          'data-line-index': String(i),
          'aria-current': S.cursor === i ? 'step' : 'false',
        }),
      );
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
  if (S.pdnUrl) {
    URL.revokeObjectURL(S.pdnUrl);
    S.pdnUrl = '';
  }
  box.hidden = !list.length;
  const a = $('pv-download');
  if (!list.length) {
    a.removeAttribute('href');
    box.dataset.pdn = '';
    return;
  }
  const text = pvPdn(S.variant, S.fen, list, S.answer.wdl);
  box.dataset.pdn = text;
  S.pdnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-draughts-pdn' }));
  a.href = S.pdnUrl;
  a.download = pvFileName(S.variant, S.fen);
}

export async function copyPv() {
  const text = $('pv-export').dataset.pdn;
  if (!text) return;
  const b = $('pv-copy');
  try {
    await navigator.clipboard.writeText(text);
    b.textContent = 'Copied';
  } catch {
    b.textContent = 'Copy failed: use the download';
  }
  setTimeout(() => {
    b.textContent = 'Copy PDN';
  }, 1500);
}
