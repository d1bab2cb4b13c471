// Small helpers the page's modules share: element by id, the words of values, a link-like button.

export const $ = (id) => document.getElementById(id);
export const WDL = { win: 'Win', draw: 'Draw', loss: 'Loss' };
export const SIDE = { W: 'White', B: 'Black' };

// A button that looks like a link (moves, plies); attrs are set as attributes.
export function moveButton(text, onclick, attrs = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'link';
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener('click', onclick);
  return b;
}
