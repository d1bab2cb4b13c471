// The counting rules panel (international): the game's counters in the form, and the verdict
// under the rules from the adjudicate route (docs/API.md).
import { api, errorText } from './api.js';
import { $, WDL, SIDE, moveButton } from './dom.js';

// The counters the form holds: {rules, reversible, endgame, small} (null: not in force).
export function readCounters() {
  const n = (id) => ($(id).value === '' ? null : Math.max(0, Math.floor(Number($(id).value)) || 0));
  return {
    rules: $('rules').value || 'fmjd',
    reversible: n('reversible') ?? 0,
    endgame: n('endgame'),
    small: n('small'),
  };
}
// Puts counters in the form (a rule set the server does not offer is left as it is).
export function writeCounters(k) {
  if (!k) return;
  if (k.rules && [...$('rules').options].some((o) => o.value === k.rules)) $('rules').value = k.rules;
  $('reversible').value = String(k.reversible ?? 0);
  $('endgame').value = k.endgame == null ? '' : String(k.endgame);
  $('small').value = k.small == null ? '' : String(k.small);
}

// Answers to an older request are dropped: the latest position's verdict wins.
let verdictSeq = 0;
// The verdict under the counting rules of the position `fen` (international), from the adjudicate
// route with the form's counters; play(moveText) plays one of the moves that keep the result.
export async function showVerdict(variant, fen, sideToMove, play) {
  const box = $('adjudication');
  if (variant !== 'international') {
    box.replaceChildren();
    return;
  }
  const q = new URLSearchParams({ fen, rules: $('rules').value, reversible: $('reversible').value || '0' });
  for (const k of ['endgame', 'small']) if ($(k).value !== '') q.set(k, $(k).value);
  const seq = ++verdictSeq;
  box.dataset.state = 'loading';
  const r = await api(`api/v1/international/adjudicate?${q}`);
  if (seq !== verdictSeq) return;
  box.replaceChildren();
  if (!r.ok) {
    box.dataset.state = 'error';
    box.textContent = `No verdict: ${errorText(r)}`;
    return;
  }
  const d = r.data;
  box.dataset.state = 'ready';
  box.dataset.result = d.result;
  const side = SIDE[sideToMove];
  const p = (t, cls) => {
    const e = document.createElement('p');
    e.textContent = t;
    if (cls) e.className = cls;
    box.appendChild(e);
    return e;
  };
  const rulesName = d.rules === 'none' ? 'without counting rules' : `under the ${String(d.rules).toUpperCase()} rules`;
  p(
    `Verdict ${rulesName}: ${side} to move, ${WDL[d.result] || d.result}` +
      (d.plies != null ? ` in ${d.plies} plies.` : '.'),
    `verdict wdl-${d.result}`,
  ).id = 'verdict-text';
  if (d.rule && d.rule !== 'none') p(`Rule that draws: the ${d.rule} rule.`).id = 'verdict-rule';
  p(
    `Theoretical value (no counting rules): ${d.theoretical ? WDL[d.theoretical] || d.theoretical : 'not known'}` +
      (d.theoretical_dtw != null ? `, DTW ${d.theoretical_dtw}.` : '.'),
  );
  const ms = Array.isArray(d.moves) ? d.moves : [];
  const e = p(ms.length ? 'Moves that keep the result: ' : 'No move keeps the result (or no legal move).');
  e.id = 'verdict-moves';
  for (const m of ms) {
    e.appendChild(
      moveButton(
        `${m.move} (${WDL[m.result] || m.result}${m.plies != null ? `, ${m.plies}` : ''})`,
        () => play(m.move),
        { 'data-keep-move': m.move },
      ),
    );
    e.append(' ');
  }
}
