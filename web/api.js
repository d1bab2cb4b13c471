// The JSON API (docs/API.md). Every call resolves to {ok, status, data}; never throws.

export async function api(path, init) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') return { ok: false, status: 0, aborted: true, data: { error: 'cancelled' } };
    return { ok: false, status: 0, data: { error: `the server did not answer (${e.message})` } };
  }
  let data;
  const text = await res.text().catch(() => '');
  try {
    data = JSON.parse(text);
  } catch {
    data = res.ok ? { error: 'the answer is not JSON' } : { error: text.slice(0, 300) || res.statusText };
  }
  if (!res.ok && (!data || typeof data.error !== 'string')) data = { error: `${res.status} ${res.statusText}` };
  return { ok: res.ok, status: res.status, data };
}

export function errorText(r) {
  if (r.ok) return '';
  const msg = r.data && r.data.error ? r.data.error : 'unknown error';
  // Beyond the tables: the server's sentence says how many pieces it holds and which command
  // makes more; a status code would add nothing to it.
  if (r.status === 0 || r.status === 422) return msg;
  const kind = { 400: 'bad input', 404: 'not found', 413: 'too large', 503: 'unavailable' }[r.status] || 'error';
  return `${kind} (${r.status}): ${msg}`;
}

// The probe route; with `counters` ({rules, reversible, endgame, small}: international only) each
// move of the answer also carries the counters after it.
export function probeUrl(variant, fen, counters) {
  let url = `api/v1/${variant}?fen=${encodeURIComponent(fen)}`;
  if (counters && variant === 'international') url += `&${counterQuery(counters)}`;
  return url;
}

// rules=&reversible=&endgame=&small= of a counters object (absent counters left out).
export function counterQuery(k) {
  const q = new URLSearchParams({ rules: k.rules || 'fmjd', reversible: String(k.reversible ?? 0) });
  for (const n of ['endgame', 'small']) if (k[n] != null && k[n] !== '') q.set(n, String(k[n]));
  return q.toString();
}
