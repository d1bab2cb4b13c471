// Moves made on the board: click a piece then a square (and the squares on the way when captures
// differ only there), or drag the piece; in set-up mode a click puts or takes a piece.
import { squareFromPoint, svgPoint } from './board.js';
import { $ } from './dom.js';
import { S, moves, candidates, inner, lastOf } from './state.js';
import { moveNote } from './messages.js';
import { openChooser, closeChooser } from './route-chooser.js';
import { renderBoard } from './board-view.js';
import { playMove } from './line.js';
import { setupClick } from './setup.js';

function onSquare(name) {
  if (!name) return;
  if (S.setup) return setupClick(name);
  const all = moves();
  if (S.sel) {
    const cand = candidates();
    const dest = cand.filter((m) => lastOf(m.path) === name);
    if (dest.length === 1) {
      S.sel = null;
      S.via = [];
      playMove(dest[0]);
      return;
    }
    if (dest.length > 1) {
      renderBoard();
      openChooser(dest, (m) => {
        S.sel = null;
        closeChooser();
        playMove(m);
      });
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
  const why = !all.length
    ? 'no move is legal here'
    : capture
      ? `a capture is compulsory (${[...new Set(all.map((m) => m.move))].slice(0, 6).join(', ')})`
      : 'not a legal move here';
  moveNote(`Illegal move: ${what}; ${why}.`);
}

// The route chooser cancelled, or Escape: no piece selected.
export function cancelSelection() {
  closeChooser();
  S.sel = null;
  S.via = [];
  renderBoard();
}

// A drag under way ({sq, x, y, id, moved}); the click that ends a drag is not a click on a square.
let drag = null,
  suppressClick = false;
export function initBoardInput() {
  const svg = $('board');
  svg.addEventListener('click', (e) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
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
      S.sel = drag.sq;
      S.via = [];
      renderBoard();
    }
    const g = svg.querySelector(`[data-piece-square="${drag.sq}"]`);
    if (g) {
      g.setAttribute('transform', `translate(${p.x} ${p.y})`);
      g.classList.add('dragging');
      svg.appendChild(g);
    }
  });
  const end = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    suppressClick = true;
    setTimeout(() => {
      suppressClick = false;
    }, 0);
    const to = e.type === 'pointerup' ? squareFromPoint(svg, S.variant, S.flipped, e.clientX, e.clientY) : null;
    if (to && to !== d.sq) onSquare(to);
    else renderBoard();
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
}
