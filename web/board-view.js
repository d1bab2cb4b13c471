// The board as the state has it: pieces, selection, the squares a move may reach, the last move
// (or the one under the mouse), and its spoken description.
import { VARIANTS, drawBoard } from './board.js';
import { $, SIDE } from './dom.js';
import { S, moves, candidates, lastOf } from './state.js';

export function renderBoard() {
  const origins = new Set(
    S.setup
      ? []
      : moves()
          .filter((m) => m.path)
          .map((m) => m.path[0]),
  );
  const entry = S.line[S.cursor];
  drawBoard($('board'), {
    variant: S.variant,
    pos: S.pos,
    flipped: S.flipped,
    names: S.names,
    selected: S.sel,
    targets: S.sel ? new Set(candidates().map((m) => lastOf(m.path))) : null,
    via: new Set(S.via),
    origins,
    last: S.preview || (entry && entry.path) || null,
    anim: S.anim,
  });
  S.anim = null;
  const pieces = [...S.pos.pieces].map(
    ([sq, p]) => `${p[0] === 'w' ? 'white' : 'black'} ${p[1] === 'k' ? 'king' : 'man'} ${sq}`,
  );
  $('board').setAttribute(
    'aria-label',
    `${VARIANTS[S.variant].label} board, ${SIDE[S.pos.side]} to move: ${pieces.join(', ') || 'empty'}`,
  );
}
