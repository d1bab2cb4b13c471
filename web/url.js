// The page's address: #variant/FEN?rules=&reversible=&endgame=&small= (docs/API.md), and the
// variant a FEN's squares name.
import { VARIANTS } from './board.js';
import { counterQuery } from './api.js';

// The counters of a position set up or pasted (international): FMJD, nothing counted yet.
export const DEFAULT_COUNTERS = { rules: 'fmjd', reversible: 0, endgame: null, small: null };

export function isDefault(k) {
  return (k.rules || 'fmjd') === 'fmjd' && !Number(k.reversible) && (k.endgame ?? '') === '' && (k.small ?? '') === '';
}

// 'turkish' when the FEN names squares a1-h8, 'international' when it names numbers, else null.
export function detectVariant(text) {
  const lists = String(text)
    .trim()
    .split(':')
    .slice(1)
    .map((l) => l.trim().slice(1));
  const items = lists
    .join(',')
    .split(',')
    .map((x) => x.trim().replace(/^k/i, ''))
    .filter((x) => x);
  if (items.some((x) => /^[a-h][1-8]/i.test(x))) return 'turkish';
  if (items.some((x) => /^\d/.test(x))) return 'international';
  return null;
}

// #variant/FEN, then ?rules=&reversible=&endgame=&small= when the counters of an international
// position are not the defaults (FMJD, 0, none, none): a shared link restores them.
export function hashOf(variant, fen, k) {
  const extra = variant === 'international' && k && !isDefault(k) ? `?${counterQuery(k)}` : '';
  return `#${variant}/${fen}${extra}`;
}

// Counters from URL parameters (rules, reversible, endgame, small), or null when none is given.
export function countersFrom(params) {
  if (!['rules', 'reversible', 'endgame', 'small'].some((n) => params.has(n))) return null;
  const n = (name) => {
    const v = params.get(name);
    return v == null || v === '' || !/^\d{1,7}$/.test(v) ? null : Number(v);
  };
  return {
    rules: params.get('rules') || 'fmjd',
    reversible: n('reversible') ?? 0,
    endgame: n('endgame'),
    small: n('small'),
  };
}

export function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The position the address names: {variant, fen, counters} (the variant's example when none).
export function fromLocation() {
  const q = new URLSearchParams(location.search);
  let variant = q.get('variant'),
    fen = q.get('fen'),
    counters = countersFrom(q);
  let h = decode(location.hash.slice(1));
  if (h) {
    const at = h.indexOf('?');
    if (at >= 0) {
      counters = countersFrom(new URLSearchParams(h.slice(at + 1)));
      h = h.slice(0, at);
    }
    const i = h.indexOf('/');
    if (i > 0) {
      variant = h.slice(0, i);
      fen = h.slice(i + 1);
    } else fen = h;
  }
  if (fen && !VARIANTS[variant]) variant = detectVariant(fen) || 'international';
  if (!VARIANTS[variant]) variant = 'international';
  return { variant, fen: fen || VARIANTS[variant].example, counters };
}

// Puts the position shown in the address: mode 'push' adds a history entry (none when the address
// already names it), 'replace' rewrites the current one, 'none' leaves the address alone.
export function writeLocation(mode, variant, fen, counters) {
  const url = hashOf(variant, fen, counters);
  if (mode === 'push' && decode(location.hash) !== url) history.pushState({ variant, fen, counters }, '', url);
  else if (mode !== 'none') history.replaceState({ variant, fen, counters }, '', url);
}
