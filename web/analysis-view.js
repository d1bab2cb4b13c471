// The value of the position shown and its table of moves, each with its value; a move row under
// the mouse shows its move on the board.
import { $, WDL, SIDE } from './dom.js';
import { S, moves } from './state.js';
import { renderBoard } from './board-view.js';
import { playMove } from './line.js';

function valueText(wdl, dtw, dtc) {
  let t = WDL[wdl] || String(wdl);
  if (dtw != null) t += `, DTW ${dtw}`;
  if (dtc != null) t += `, DTC ${dtc}`;
  return t;
}

export function renderAnalysis() {
  const a = S.answer;
  const pv = $('position-value');
  pv.dataset.wdl = a ? a.wdl : '';
  pv.className = a ? `wdl-${a.wdl}` : '';
  if (a) {
    const end =
      a.wdl === 'draw'
        ? 'A draw with best play.'
        : `${SIDE[S.pos.side]} ${a.wdl === 'win' ? 'wins' : 'loses'} in ${a.dtw} plies (DTW); DTC ${a.dtc}.`;
    pv.textContent = `${SIDE[S.pos.side]} to move: ${WDL[a.wdl] || a.wdl}. ${end}`;
    if (!moves().length) pv.textContent += ' No legal move.';
  } else
    pv.textContent = S.error
      ? `${SIDE[S.pos.side]} to move. No value: ${S.error}`
      : `${SIDE[S.pos.side]} to move. Loading...`;

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
    tr.addEventListener('pointerenter', (e) => {
      if (e.pointerType === 'mouse') {
        S.preview = m.path || null;
        renderBoard();
      }
    });
    tr.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'mouse' && S.preview) {
        S.preview = null;
        renderBoard();
      }
    });
    const notes = [];
    if (m.captures) notes.push(`captures ${m.captures}`);
    if (m.promotes) notes.push('promotes');
    const cells = [b, WDL[m.wdl] || m.wdl, m.dtw ?? '-', m.dtc ?? '-', notes.join(', ')];
    for (const c of cells) {
      const td = document.createElement('td');
      if (c instanceof Node) td.appendChild(c);
      else td.textContent = String(c);
      tr.appendChild(td);
    }
    tr.children[1].className = 'value';
    body.appendChild(tr);
  }
}
