// The explorer page (docs/API.md): board, moves, principal variation, set-up, counting rules.
// This entry point wires the modules, then shows the position the address names. It imports
// every module, so the browser asks for them all at once (two levels deep: BENCHMARKS.md).
import { VARIANTS, parseFen } from './board.js';
import { api } from './api.js';
import { fromLocation } from './url.js';
import { initGames } from './game.js';
import { initSolve } from './solve.js';
import { S } from './state.js';
import { show } from './show.js';
import { showLine, onPopState } from './line.js';
import { initBoardInput } from './board-input.js';
import { initFenBox } from './fen-box.js';
import { initControls } from './controls.js';
import { initSetup } from './setup.js';
import { loadStatus, largestPieces } from './status.js';
import './dom.js';
import './pdn.js';
import './rules.js';
import './messages.js';
import './route-chooser.js';
import './view.js';
import './board-view.js';
import './analysis-view.js';
import './line-view.js';

function init() {
  initBoardInput();
  initSolve();
  initFenBox();
  initControls();
  initSetup();
  window.addEventListener('popstate', onPopState);
  initGames({ api, largestPieces, showLine });
  const start = fromLocation();
  S.pos = parseFen(start.variant, VARIANTS[start.variant].example);
  show(start.variant, start.fen, { history: 'replace', counters: start.counters }).then(() => {
    if (!S.fen) show(start.variant, VARIANTS[start.variant].example, { history: 'replace' });
  });
  loadStatus();
}

init();
