// The game panel: a PDN text is judged by POST api/v1/international/games (the server's judge, the
// same as dtb adjudicate --pdn's; the page reads no PDN itself); the answer's games are listed with
// their verdict, events, a chart of the values along the game and the plies.
import { errorText } from './api.js';

const $ = (id) => document.getElementById(id);
const START = 'W:W31-50:B1-20';
const EXAMPLE = `[Event "16-move limit passed, then a win recorded"]
[GameType "20"]
[SetUp "1"]
[FEN "W:WK40,K45,50:BK11"]
[Result "2-0"]
1. 40-18 11-28 2. 18-27 28-39 3. 27-38 39-25 4. 45-40 25-48 5. 40-18 48-25 6. 38-27 25-30
7. 27-22 30-48 8. 22-28 48-43 9. 18-12 43-27 10. 28-11 27-43 11. 12-18 43-16 12. 18-7 16-43
13. 11-22 43-21 14. 7-2 21-38 15. 22-13 38-32 16. 2-8 32-49 17. 13-22 49-38 2-0
`;

const white = (v, fen) => {
  // A value from White's point of view: 1, 0, -1 or null.
  if (v == null) return null;
  const s = String(v).toLowerCase();
  if (s.startsWith('white')) return 1;
  if (s.startsWith('black')) return -1;
  if (s === 'draw') return 0;
  if ((s === 'win' || s === 'loss') && fen) return (s === 'win') === (fen[0].toUpperCase() === 'W') ? 1 : -1;
  return null;
};
const VALUE_TEXT = { 1: 'White wins', 0: 'Draw', '-1': 'Black wins' };

// The game's positions as the answer gives them (docs/API.md, "positions": one per ply, ply 0 the
// start), normalised to [{ply, fen, move, theo, rule, dtw, counters, started, drawn}]; values from
// White's point of view. Null when the answer carries none.
function perPly(g) {
  const arr = Array.isArray(g.positions) ? g.positions : null;
  if (!arr || !arr.length) return null;
  return arr.map((e, i) => ({
    ply: Number.isInteger(e.ply) ? e.ply : i,
    fen: e.fen || null,
    move: e.move || null,
    theo: white(e.theoretical, e.fen),
    rule: white(e.rule_value, e.fen),
    dtw: e.theoretical_dtw ?? null,
    counters: e.counters || null,
    started: e.started || null,
    drawn: e.drawn_by || null,
  }));
}

// The first ply whose value differs from the ply before's (both known): the theoretical value or
// the value under the rules, whichever changes first. {ply, key, from, to} or null.
function firstChange(plies) {
  for (let k = 1; k < plies.length; k++) {
    const a = plies[k - 1],
      b = plies[k];
    if (!a || !b) continue;
    for (const key of ['theo', 'rule']) {
      if (a[key] != null && b[key] != null && a[key] !== b[key]) return { ply: k, key, from: a[key], to: b[key] };
    }
  }
  return null;
}

const NS = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, parent, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// The values along the game: the theoretical value (solid) and the value under the rules
// (dashed) per ply, a line where a count starts (blue) or a limit or repetition draws (red), and
// one point per ply (a click shows that position on the board). Plies beyond the tables sit on
// the bottom row.
function drawChart(svg, g, plies, onPly) {
  svg.replaceChildren();
  const n = Math.max(1, g.plies || plies.length - 1 || 1);
  const W = 320,
    H = 112,
    L = 70,
    R = 8;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const x = (p) => L + (p / n) * (W - L - R);
  const y = (v) => (v === 1 ? 18 : v === 0 ? 50 : v === -1 ? 82 : 98);
  for (const v of [1, 0, -1]) {
    svgEl('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }, svg);
    svgEl('text', { x: L - 4, y: y(v) + 3, class: 'axis', 'text-anchor': 'end' }, svg, VALUE_TEXT[v]);
  }
  svgEl('text', { x: L - 4, y: y(null) + 3, class: 'axis', 'text-anchor': 'end' }, svg, 'not in tables');
  svgEl('text', { x: L, y: H - 2, class: 'axis' }, svg, 'ply 0');
  svgEl('text', { x: W - R, y: H - 2, class: 'axis', 'text-anchor': 'end' }, svg, `ply ${n}`);
  for (const ev of g.events || []) {
    const name = String(ev.event || '');
    const cls = /start/.test(name) ? 'ev-start' : /draw|repetition/.test(name) ? 'ev-draw' : 'ev-other';
    const l = svgEl(
      'line',
      { x1: x(ev.ply), x2: x(ev.ply), y1: 8, y2: 90, class: `event ${cls}`, 'data-event': name, 'data-ply': ev.ply },
      svg,
    );
    svgEl('title', {}, l, `ply ${ev.ply}: ${name}${ev.detail ? ` (${ev.detail})` : ''}`);
    if (cls !== 'ev-other') {
      const label = cls === 'ev-start' ? name.replace(' started', '') : name.replace('draw by ', '');
      const right = x(ev.ply) > W - 60; // near the right edge: the label on the line's left
      svgEl(
        'text',
        {
          x: x(ev.ply) + (right ? -2 : 2),
          y: cls === 'ev-start' ? 8 : 96,
          class: `ev-label ${cls}`,
          'text-anchor': right ? 'end' : 'start',
        },
        svg,
        label,
      );
    }
  }
  const series = (key, cls, dy) => {
    const pts = plies.filter((p) => p && p[key] != null);
    if (pts.length > 1) {
      let d = `M${x(pts[0].ply)} ${y(pts[0][key]) + dy}`;
      for (const p of pts.slice(1)) d += ` H${x(p.ply)} V${y(p[key]) + dy}`;
      svgEl('path', { d, class: `series ${cls}`, 'data-series': cls }, svg);
    }
  };
  series('theo', 'theo', -2);
  series('rule', 'rule', 2);
  // The answer's own judgements: at the first judged ply and at the end.
  const marks = [
    [g.first_judged_ply, g.theoretical_at_first_judged, 'theo', -2],
    [g.first_judged_ply, g.rule_value_at_first_judged, 'rule', 2],
    [g.plies, g.theoretical_at_end, 'theo', -2],
    [g.plies, g.rule_value_at_end, 'rule', 2],
  ];
  for (const [p, v, cls, dy] of marks) {
    const w = white(v);
    if (p == null || w == null) continue;
    const c = svgEl('circle', { cx: x(p), cy: y(w) + dy, r: 3, class: `mark ${cls}` }, svg);
    svgEl('title', {}, c, `ply ${p}: ${cls === 'theo' ? 'theoretical' : 'under the rules'} ${v}`);
  }
  // One point per ply, on top: its value under the rules (else the theory), and a hit area as
  // wide as the ply.
  const cursor = svgEl('line', { x1: 0, x2: 0, y1: 8, y2: 100, class: 'ply-cursor', visibility: 'hidden' }, svg);
  svg.markPly = (k) => {
    cursor.setAttribute('visibility', k == null ? 'hidden' : 'visible');
    if (k != null) {
      cursor.setAttribute('x1', x(k));
      cursor.setAttribute('x2', x(k));
    }
  };
  const step = (W - L - R) / n;
  for (const p of plies) {
    if (!p) continue;
    const v = p.rule ?? p.theo;
    const gEl = svgEl(
      'g',
      { class: 'ply-point', 'data-ply': String(p.ply), 'data-value': String(v ?? ''), tabindex: '0', role: 'button' },
      svg,
    );
    svgEl('rect', { x: x(p.ply) - step / 2, y: 8, width: Math.max(step, 2), height: 94, class: 'ply-hit' }, gEl);
    svgEl('circle', { cx: x(p.ply), cy: y(v), r: 1.6, class: `ply-dot v${v ?? 'x'}` }, gEl);
    const parts = [`ply ${p.ply}${p.move ? ` (${p.move})` : ''}`];
    parts.push(
      p.theo == null ? 'beyond the tables' : `theoretical ${VALUE_TEXT[p.theo]}${p.dtw != null ? ` in ${p.dtw}` : ''}`,
    );
    if (p.rule != null) parts.push(`under the rules ${VALUE_TEXT[p.rule]}`);
    if (p.counters)
      parts.push(`counters ${p.counters.reversible}/${p.counters.endgame ?? '-'}/${p.counters.small ?? '-'}`);
    if (p.started) parts.push(`${p.started} count starts`);
    if (p.drawn) parts.push(`drawn by ${p.drawn}`);
    svgEl('title', {}, gEl, parts.join('; '));
    const go = () => onPly(p.ply);
    gEl.addEventListener('click', go);
    gEl.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        go();
      }
    });
  }
}

export function initGames(ctx) {
  let answer = null,
    seq = 0;
  // The game shown: the token its line carries on the board, and the ply the board shows (null
  // when the board has left the game's line).
  let shown = { owner: null, ply: null, mark: () => {} };

  // The board changed: the game's ply list and chart mark the ply shown, or nothing once the
  // board shows another line (a tapped ply must not stay marked).
  document.addEventListener('dtb:shown', (e) => {
    const d = e.detail || {};
    shown.ply = d.owner && d.owner === shown.owner ? d.cursor : null;
    shown.mark();
  });

  const el = (tag, text, attrs = {}) => {
    const e = document.createElement(tag);
    if (text != null) e.textContent = text;
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };

  async function submit() {
    const text = $('pdn-text').value;
    const out = $('game-output');
    out.replaceChildren(el('p', 'Judging...'));
    out.dataset.state = 'loading';
    const my = ++seq;
    const r = await ctx.api('api/v1/international/games', {
      method: 'POST',
      body: text,
      headers: { 'Content-Type': 'text/plain' },
    });
    if (my !== seq) return;
    out.replaceChildren();
    if (!r.ok) {
      out.dataset.state = 'error';
      out.appendChild(el('p', `The game could not be judged: ${errorText(r)}`, { class: 'error', id: 'game-error' }));
      return;
    }
    answer = r.data;
    const games = Array.isArray(answer.games) ? answer.games : [];
    if (!games.length) {
      out.dataset.state = 'error';
      out.appendChild(el('p', 'The answer holds no game.', { class: 'error', id: 'game-error' }));
      return;
    }
    out.dataset.state = 'ready';
    if (answer.rules) out.appendChild(el('p', `Rules: ${String(answer.rules).toUpperCase()}`, { class: 'muted' }));
    if (games.length > 1) {
      const lab = el('label', 'Game: ', { for: 'game-select' });
      const sel = el('select', null, { id: 'game-select' });
      games.forEach((g, i) =>
        sel.appendChild(
          new Option(
            `${i + 1}. ${(g.tags && g.tags.Event) || 'game'} (${g.consistent ? 'consistent' : g.judged === false ? 'not judged' : 'inconsistent'})`,
            String(i),
          ),
        ),
      );
      sel.addEventListener('change', () => showGame(Number(sel.value)));
      lab.appendChild(sel);
      out.appendChild(lab);
    }
    out.appendChild(el('div', null, { id: 'game-detail' }));
    showGame(0);
  }

  function showGame(i) {
    const g = answer.games[i];
    const tags = g.tags || {};
    const box = $('game-detail');
    box.replaceChildren();
    const title = [tags.Event, tags.White && tags.Black ? `${tags.White} - ${tags.Black}` : null]
      .filter(Boolean)
      .join(', ');
    if (title) box.appendChild(el('h3', title));
    const verdict = el('div', null, {
      id: 'game-verdict',
      'data-consistent': String(!!g.consistent),
      'data-judged': String(g.judged !== false),
      'data-outcome': g.outcome || '',
    });
    const unjudged = g.judged === false || (g.first_judged_ply == null && g.consistent);
    // A record that stops at a move: an illegal (or ambiguous) one makes the game inconsistent,
    // an unreadable one leaves it not judged (docs/CLI.md); neither is a result that disagrees.
    const stopped = g.stopped_at_ply ?? null;
    if (stopped != null) verdict.dataset.stoppedAt = String(stopped);
    const status =
      g.judged === false
        ? stopped != null
          ? `Not judged: the move at ply ${stopped} cannot be read`
          : 'Not judged'
        : stopped != null
          ? `Illegal move at ply ${stopped}: the game cannot be followed from there`
          : !g.consistent
            ? 'Inconsistent: the recorded result disagrees with the tables'
            : g.first_judged_ply == null
              ? 'Nothing to judge: no position of this game is within the tables'
              : 'Consistent: the recorded result agrees with the tables';
    verdict.appendChild(el('p', status, { class: unjudged ? 'warn' : g.consistent ? 'ok' : 'bad', id: 'game-status' }));
    const facts = [
      ['Recorded result', `${g.recorded ?? '?'}${g.result ? ` (${g.result})` : ''}`],
      ['Outcome', g.outcome],
      ['Plies', g.plies],
      ['First judged at ply', g.first_judged_ply],
      ['Theoretical value there', g.theoretical_at_first_judged],
      ['Under the rules there', g.rule_value_at_first_judged],
      ['Theoretical value at the end', g.theoretical_at_end],
      ['Under the rules at the end', g.rule_value_at_end],
    ];
    const dl = el('dl');
    for (const [k, v] of facts)
      if (v != null && v !== '') {
        dl.appendChild(el('dt', k));
        dl.appendChild(el('dd', String(v)));
      }
    verdict.appendChild(dl);
    const probs = Array.isArray(g.problems) ? g.problems : [];
    if (probs.length) {
      const ul = el('ul', null, { class: 'problems' });
      for (const p of probs) ul.appendChild(el('li', p));
      verdict.appendChild(el('p', 'Problems:'));
      verdict.appendChild(ul);
    }
    box.appendChild(verdict);

    const events = Array.isArray(g.events) ? g.events : [];
    if (events.length) {
      box.appendChild(el('h4', 'Events'));
      const ul = el('ul', null, { id: 'game-events' });
      for (const e of events)
        ul.appendChild(
          el('li', `ply ${e.ply}: ${e.event}${e.detail ? ` (${e.detail})` : ''}`, {
            'data-ply': e.ply,
            'data-event': e.event,
          }),
        );
      box.appendChild(ul);
    }

    // Plies: from the answer (the server judged the text; the page does not read PDN itself).
    const api = perPly(g);
    const moveTexts = api ? api.filter((p) => p.move).map((p) => p.move) : [];
    const plies = [];
    if (api) for (const p of api) plies[p.ply] = p;
    const startFen = tags.FEN || (plies[0] && plies[0].fen) || START;
    if (!plies[0]) plies[0] = { ply: 0, fen: startFen };
    else if (!plies[0].fen) plies[0].fen = startFen;
    // The squares of each move, for the board's last-move marks.
    const paths = moveTexts.map((t) => String(t).toLowerCase().split(/[-x:]/));

    const jumps = el('p', null, { id: 'game-jumps' });
    box.appendChild(jumps);

    box.appendChild(el('h4', 'Values along the game'));
    const chart = document.createElementNS(NS, 'svg');
    chart.id = 'game-chart';
    chart.setAttribute('role', 'group');
    chart.setAttribute(
      'aria-label',
      `Chart of the theoretical value (solid) and the value under the rules (dashed) along the game; vertical lines mark events: ${events.map((e) => `ply ${e.ply} ${e.event}`).join('; ') || 'none'}`,
    );
    box.appendChild(chart);
    box.appendChild(
      el(
        'p',
        "Solid: theoretical value; dashed: value under the counting rules with the game's counters; blue lines: a count starts; red lines: a draw by a limit or repetition. Click a ply to see it on the board.",
        { class: 'muted small' },
      ),
    );

    box.appendChild(el('h4', 'Moves'));
    const ol = el('ol', null, { id: 'game-moves', class: 'plies' });
    box.appendChild(ol);
    const note = el('p', '', { class: 'muted small', id: 'game-moves-note' });
    box.appendChild(note);

    const fensUpTo = () => {
      const fens = [];
      for (let k = 0; plies[k] && plies[k].fen; k++) fens.push(plies[k].fen);
      return fens;
    };
    const owner = {};
    const clickPly = (k) => {
      const fens = fensUpTo();
      if (k >= fens.length) {
        note.textContent = `The position after ply ${k} is not available.`;
        return;
      }
      ctx.showLine(
        fens,
        moveTexts,
        paths,
        k,
        plies.map((p) => (p && p.counters) || null),
        g.rules,
        owner,
      );
    };
    shown = {
      owner,
      ply: null,
      mark() {
        for (const b of ol.querySelectorAll('button[data-ply]'))
          b.setAttribute('aria-current', String(Number(b.dataset.ply) === this.ply));
        if (chart.markPly) chart.markPly(this.ply);
      },
    };
    // The position the verdict rests on: the decisive ply (where the game is drawn or ends, or
    // the illegal move was tried), else the end; the last position known when it is beyond.
    const judgedPly = () => {
      const last = fensUpTo().length - 1;
      return last < 0 ? null : Math.min(g.decisive_ply ?? g.plies ?? last, last);
    };
    const renderJumps = () => {
      jumps.replaceChildren();
      const j = judgedPly();
      if (j == null) return;
      jumps.appendChild(
        el('button', `Judged position: ply ${j}`, { type: 'button', id: 'game-jump-judged', 'data-ply': String(j) }),
      );
      jumps.lastChild.addEventListener('click', () => clickPly(j));
      const c = firstChange(plies);
      jumps.append(' ');
      if (!c) {
        jumps.appendChild(
          el('span', 'The value never changes along the game.', { class: 'muted', id: 'game-no-change' }),
        );
        return;
      }
      const p = plies[c.ply];
      const label = `First change of value: ply ${c.ply}${p.move ? ` (${p.move})` : ''}, ${c.key === 'theo' ? 'theoretical' : 'under the rules'} ${VALUE_TEXT[c.from]} to ${VALUE_TEXT[c.to]}`;
      const b = el('button', label, {
        type: 'button',
        id: 'game-jump-change',
        'data-ply': String(c.ply),
        'data-key': c.key,
      });
      b.addEventListener('click', () => clickPly(c.ply));
      jumps.appendChild(b);
    };
    const renderPlies = () => {
      ol.replaceChildren();
      const li0 = el('li', null, { class: 'start' });
      li0.appendChild(button('start position', 0));
      ol.appendChild(li0);
      const off = startFen.trim()[0].toUpperCase() === 'B' ? 1 : 0;
      moveTexts.forEach((t, k) => {
        const li = el('li');
        const label = `${Math.floor((k + off) / 2) + 1}.${(k + off) % 2 ? '..' : ''} ${t}`;
        li.appendChild(button(label, k + 1));
        ol.appendChild(li);
      });
      // The events beside the ply they happen at.
      for (const e of events) {
        const b = ol.querySelector(`button[data-ply="${e.ply}"]`);
        if (b) b.parentNode.appendChild(el('span', ` [${e.event}]`, { class: 'ply-event', 'data-event': e.event }));
      }
      drawChart(chart, g, plies, clickPly);
      renderJumps();
      shown.mark();
    };
    function button(label, k) {
      const p = plies[k];
      const b = el('button', label, { type: 'button', class: 'link', 'data-ply': String(k) });
      const val = p && (p.rule ?? p.theo);
      if (p && (p.theo != null || p.rule != null)) {
        const parts = [];
        if (p.theo != null) parts.push(`${VALUE_TEXT[p.theo]}${p.dtw != null && p.theo ? ` in ${p.dtw}` : ''}`);
        if (p.rule != null) parts.push(`rules: ${VALUE_TEXT[p.rule]}`);
        const s = el('span', ` ${parts.join(', ')}`, { class: `ply-value v${val}`, 'data-value': String(val) });
        b.appendChild(s);
      }
      b.addEventListener('click', () => clickPly(k));
      return b;
    }
    renderPlies();

    // Judging moves the board to the position the verdict rests on.
    const j = judgedPly();
    if (j != null) clickPly(j);

    if (!api) note.textContent = 'The positions along this game are not known: it cannot be followed from its start.';
  }

  $('pdn-submit').addEventListener('click', submit);
  $('pdn-example').addEventListener('click', () => {
    $('pdn-text').value = EXAMPLE;
    submit();
  });
  $('pdn-file').addEventListener('change', async (e) => {
    const f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 1 << 20) {
      $('game-output').textContent = "The file is over 1 MB, the server's limit.";
      return;
    }
    $('pdn-text').value = await f.text();
    submit();
  });
}
