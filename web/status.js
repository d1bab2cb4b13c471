// The server's status (api/v1/status): its version and tables in the footer, the rule sets and
// the solve limits it offers, and how many pieces its tables reach.
import { $ } from './dom.js';
import { api, errorText } from './api.js';
import { setSolveLimits } from './solve.js';
import { S } from './state.js';
import { syncVariantUi } from './view.js';

export async function loadStatus() {
  const r = await api('api/v1/status');
  if (!r.ok) {
    $('server-status').textContent = `Server status unknown: ${errorText(r)}`;
    return;
  }
  S.status = r.data;
  setSolveLimits(r.data.solve);
  const parts = (r.data.variants || []).map(
    (v) => `${v.variant}: ${v.tables ? `up to ${v.largest_pieces} pieces` : 'no tables'}`,
  );
  $('server-status').textContent = `dtb ${r.data.version || ''} · ${parts.join(' · ')}`;
  const intl = (r.data.variants || []).find((v) => v.variant === 'international');
  if (intl && Array.isArray(intl.rule_sets) && intl.rule_sets.length) {
    const sel = $('rules'),
      cur = sel.value;
    sel.replaceChildren(...intl.rule_sets.map((n) => new Option(n === 'none' ? 'none' : n.toUpperCase(), n)));
    if (intl.rule_sets.includes(cur)) sel.value = cur;
  }
  if (S.pos) syncVariantUi();
}

// The most pieces the variant's tables hold (4 until the status has come).
export function largestPieces(variant) {
  const v = S.status && (S.status.variants || []).find((x) => x.variant === variant);
  return v ? v.largest_pieces || 0 : 4;
}
