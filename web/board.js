// Board geometry, FEN text and the SVG drawing of both variants. No network, no page state.

export const VARIANTS = {
  international: { size: 10, label: 'International 10x10', start: 'W:W31-50:B1-20', example: 'W:W28:BK19,K40' },
  turkish: { size: 8, label: 'Turkish 8x8', start: 'W:Wa2-h2,a3-h3:Ba6-h6,a7-h7', example: 'W:Wa2,b3,h3:Bd6' },
};

const FILES = 'abcdefgh';

// Every square of the variant in FEN order (international 1..50; Turkish a1..h1, a2..h8).
export function squares(variant) {
  const out = [];
  if (variant === 'international') for (let n = 1; n <= 50; n++) out.push(String(n));
  else for (let r = 1; r <= 8; r++) for (const f of FILES) out.push(f + r);
  return out;
}

// Row (0 = top, White's side at the bottom) and column of a square name, or null.
export function coords(variant, name) {
  if (variant === 'international') {
    if (!/^\d{1,2}$/.test(name)) return null;
    const n = Number(name);
    if (n < 1 || n > 50) return null;
    const row = Math.floor((n - 1) / 5);
    return { row, col: 2 * ((n - 1) % 5) + (row % 2 === 0 ? 1 : 0) };
  }
  const m = /^([a-h])([1-8])$/.exec(name);
  return m ? { row: 8 - Number(m[2]), col: FILES.indexOf(m[1]) } : null;
}

export function squareAt(variant, row, col) {
  const size = VARIANTS[variant].size;
  if (row < 0 || col < 0 || row >= size || col >= size) return null;
  if (variant === 'international') {
    if ((row + col) % 2 === 0) return null;
    return String(row * 5 + Math.floor(col / 2) + 1);
  }
  return FILES[col] + (8 - row);
}

function squareIndex(variant, name) {
  if (variant === 'international') return Number(name) - 1;
  const c = coords(variant, name);
  return c ? (7 - c.row) * 8 + c.col : -1;
}

// Parses a PDN FEN ("W:W31,32,K46:B1-5"): {side: 'W'|'B', pieces: Map(square -> 'wm'|'wk'|'bm'|'bk')}.
// Throws an Error with a readable message.
export function parseFen(variant, text) {
  const s = String(text).trim().replace(/^"|"$/g, '').replace(/\.$/, '');
  if (!s) throw new Error('empty FEN');
  const side = s[0].toUpperCase();
  if (side !== 'W' && side !== 'B') throw new Error('a FEN starts with the side to move, W or B');
  const pieces = new Map();
  const lists = s.slice(1).split(':').slice(1);
  if (s.length > 1 && s[1] !== ':') throw new Error("expected ':' after the side to move");
  const all = squares(variant);
  for (const list of lists) {
    const l = list.trim();
    const colour = l[0] ? l[0].toUpperCase() : '';
    if (colour !== 'W' && colour !== 'B') throw new Error('a piece list starts with W or B');
    const items = l
      .slice(1)
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x);
    for (let item of items) {
      let king = false;
      if (/^k/i.test(item)) {
        king = true;
        item = item.slice(1);
      }
      let [a, b] = item.split('-');
      if (b === undefined) b = a;
      b = b.replace(/^k/i, '');
      a = a.toLowerCase();
      b = b.toLowerCase();
      if (!coords(variant, a) || !coords(variant, b)) throw new Error(`unknown square "${item}" for ${variant}`);
      let names;
      if (variant === 'international') names = all.slice(Number(a) - 1, Number(b));
      else {
        const ca = coords(variant, a),
          cb = coords(variant, b);
        names = [];
        if (ca.row === cb.row) for (let c = ca.col; c <= cb.col; c++) names.push(squareAt(variant, ca.row, c));
        else if (ca.col === cb.col) for (let r = ca.row; r >= cb.row; r--) names.push(squareAt(variant, r, ca.col));
        else throw new Error(`range "${item}" is not along a rank or a file`);
      }
      if (!names.length) throw new Error(`range "${item}" runs backwards`);
      for (const n of names) {
        if (pieces.has(n)) throw new Error(`square ${n} given twice`);
        pieces.set(n, (colour === 'W' ? 'w' : 'b') + (king ? 'k' : 'm'));
      }
    }
  }
  return { side, pieces };
}

export function writeFen(variant, pos) {
  const sorted = [...pos.pieces.keys()].sort((x, y) => squareIndex(variant, x) - squareIndex(variant, y));
  const list = (c) =>
    sorted
      .filter((n) => pos.pieces.get(n)[0] === c)
      .map((n) => (pos.pieces.get(n)[1] === 'k' ? 'K' : '') + n)
      .join(',');
  return `${pos.side}:W${list('w')}:B${list('b')}`;
}

const NS = 'http://www.w3.org/2000/svg';
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const PIECE_NAMES = { wm: 'white man', wk: 'white king', bm: 'black man', bk: 'black king' };

// Draws the board into `svg`. o: {variant, pos, flipped, names, selected, targets: Set, via: Set,
// origins: Set, last: [squares], anim: [squares] (the path of the move that led here: its piece
// slides along it)}. The pieces are kept when the position and the view are those already drawn,
// so that a redraw (marks, the answer arriving) does not cut a piece's slide short.
export function drawBoard(svg, o) {
  const size = VARIANTS[o.variant].size;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('data-variant', o.variant);
  svg.setAttribute('data-size', String(size));
  const key = `${o.variant}/${o.flipped}/${o.pos.side}/${[...o.pos.pieces].join(';')}`;
  const old = svg.querySelector(':scope > g.pieces');
  const keep = !o.anim && old && old.dataset.key === key && !svg.querySelector('.dragging');
  svg.replaceChildren();
  const place = (name) => {
    const c = coords(o.variant, name);
    return o.flipped ? { x: size - 1 - c.col, y: size - 1 - c.row } : { x: c.col, y: c.row };
  };
  const squaresLayer = el('g', { class: 'squares' }, svg);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const name = squareAt(o.variant, row, col);
      const x = o.flipped ? size - 1 - col : col,
        y = o.flipped ? size - 1 - row : row;
      const dark = (row + col) % 2 === 1;
      const cls = ['sq', dark ? 'dark' : 'light'];
      if (name) {
        if (o.last && o.last.includes(name)) cls.push('last');
        if (o.origins && o.origins.has(name)) cls.push('origin');
        if (o.selected === name) cls.push('sel');
        if (o.via && o.via.has(name)) cls.push('via');
      }
      const r = el('rect', { x, y, width: 1, height: 1, class: cls.join(' ') }, squaresLayer);
      if (name) r.setAttribute('data-square', name);
    }
  }
  if (o.names) drawCoordinates(svg, o.variant, o.flipped, place);
  if (keep) svg.appendChild(old);
  else drawPieces(el('g', { class: 'pieces', 'data-key': key }, svg), o, place);
  if (o.targets) {
    const layer = el('g', { class: 'targets' }, svg);
    for (const name of o.targets) {
      const { x, y } = place(name);
      el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.14, class: 'target', 'data-target': name }, layer);
    }
  }
}

// International: each square's number in its corner. Turkish: files a-h along the bottom edge
// and ranks 1-8 along the left edge, as the board is seen.
function drawCoordinates(svg, variant, flipped, place) {
  const layer = el('g', { class: 'coords' }, svg);
  if (variant === 'international') {
    for (const name of squares(variant)) {
      const { x, y } = place(name);
      el('text', { x: x + 0.06, y: y + 0.24, class: 'sqname' }, layer).textContent = name;
    }
    return;
  }
  const size = VARIANTS[variant].size;
  for (let i = 0; i < size; i++) {
    const file = FILES[flipped ? size - 1 - i : i],
      rank = String(flipped ? i + 1 : size - i);
    el(
      'text',
      { x: i + 0.94, y: size - 0.06, class: 'coord file', 'text-anchor': 'end', 'data-coord': file },
      layer,
    ).textContent = file;
    el('text', { x: 0.06, y: i + 0.26, class: 'coord rank', 'data-coord': rank }, layer).textContent = rank;
  }
}

// A piece's slide along a move's path, in ms; under ~200 ms so that play is not slowed.
const SLIDE_MS = 150;

function drawPieces(layer, o, place) {
  for (const [name, p] of o.pos.pieces) {
    if (!coords(o.variant, name)) continue;
    const { x, y } = place(name);
    const g = el(
      'g',
      {
        class: `piece ${p}`,
        'data-piece': p,
        'data-piece-square': name,
        transform: `translate(${x + 0.5} ${y + 0.5})`,
      },
      layer,
    );
    el('title', {}, g).textContent = `${PIECE_NAMES[p]} on ${name}`;
    el('circle', { r: 0.4, class: 'body' }, g);
    el('circle', { r: 0.28, class: 'ring' }, g);
    if (p[1] === 'k')
      el('path', { class: 'crown', d: 'M-.2 .1 L-.22 -.12 L-.1 -.02 L0 -.18 L.1 -.02 L.22 -.12 L.2 .1 Z' }, g);
  }
  const path = o.anim;
  if (!path || path.length < 2 || typeof layer.animate !== 'function') return;
  if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const g = layer.querySelector(`[data-piece-square="${path[path.length - 1]}"]`);
  if (!g || !path.every((sq) => coords(o.variant, sq))) return;
  // A CSS transform on SVG content is in user units: 1px is a square's side.
  const frames = path.map((sq) => {
    const { x, y } = place(sq);
    return { transform: `translate(${x + 0.5}px, ${y + 0.5}px)` };
  });
  g.animate(frames, { duration: SLIDE_MS, easing: 'ease-out' });
}

// The square under a pointer event, or null.
export function squareFromPoint(svg, variant, flipped, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const size = VARIANTS[variant].size;
  let col = Math.floor(p.x),
    row = Math.floor(p.y);
  if (flipped) {
    col = size - 1 - col;
    row = size - 1 - row;
  }
  return squareAt(variant, row, col);
}

export function svgPoint(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}
