// The page's state, one object the modules share (they read and write it; show.js and view.js
// turn it into the page), and the lookups over the API's answer it holds.
export const S = {
  variant: 'international', // the board's variant (board.js, VARIANTS)
  fen: '', // the position shown, as writeFen writes it ('' before the first)
  pos: null, // that position: {side, pieces} (board.js, parseFen)
  answer: null, // the value route's answer for it; null while awaited or when it failed
  error: '', // why there is no answer
  line: [], // {fen, move, path, counters} from the line's start; line.owner: the game it is
  cursor: 0, // the entry of the line shown
  flipped: false, // Black at the bottom
  names: true, // square names drawn
  setup: false, // set-up mode: a click puts or takes a piece
  sel: null, // the square of the piece selected on the board
  via: [], // squares clicked on the way of a capture, to tell its routes apart
  preview: null, // the path of the move under the mouse in the move list
  anim: null, // the path of the move to slide at the next drawing
  status: null, // the server's api/v1/status answer
  seq: 0, // the latest probe: answers to older ones are dropped
  lastFen: {}, // variant -> the position last shown in it
  pdnUrl: '', // the Blob URL of the best line's PDN download
};

// The legal moves of the answer shown (none while it is awaited).
export function moves() {
  return S.answer && Array.isArray(S.answer.moves) ? S.answer.moves : [];
}
export const lastOf = (a) => a[a.length - 1];
// The squares a move passes through, its start and end left out.
export const inner = (m) => (Array.isArray(m.path) ? m.path.slice(1, -1) : []);

// The moves of the selected piece through every square clicked on its way.
export function candidates() {
  return moves().filter(
    (m) => Array.isArray(m.path) && m.path[0] === S.sel && S.via.every((v) => inner(m).includes(v)),
  );
}

export function findMove(text) {
  return moves().find((m) => m.move === text);
}
