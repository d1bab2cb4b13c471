// The FEN box: a FEN typed or pasted is shown (in the variant its squares name), and the Copy
// button copies the position shown.
import { $ } from './dom.js';
import { detectVariant } from './url.js';
import { S } from './state.js';
import { message } from './messages.js';
import { show } from './show.js';

export function initFenBox() {
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('fen-input').value.trim();
    show(detectVariant(text) || S.variant, text);
  });
  $('fen-input').addEventListener('paste', () => setTimeout(() => $('fen-form').requestSubmit(), 0));
  $('fen-input').addEventListener('input', () => $('fen-input').removeAttribute('aria-invalid'));
  $('fen-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(S.fen);
      message('');
    } catch {
      $('fen-input').select();
      document.execCommand('copy');
    }
    $('fen-copy').textContent = 'Copied';
    setTimeout(() => {
      $('fen-copy').textContent = 'Copy';
    }, 1200);
  });
}
