/** Display only: every number shown comes from the run's summary or row as stored. */
export function percent(value: number | undefined, digits = 1): string {
  return value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`;
}

export function number(value: number | undefined, digits = 3): string {
  if (value === undefined) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

export function ms(value: number | undefined | null): string {
  if (value === undefined || value === null) return '—';
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

export function usd(value: number | undefined | null): string {
  if (value === undefined || value === null) return '—';
  return value < 0.01 ? `$${value.toFixed(6)}` : `$${value.toFixed(4)}`;
}

/** An LLM judge's spend: `6 calls (2 cached), 1200 tokens, $0.000300`. */
export function judgeText(judge: { calls: number; cached: number; usage: { totalTokens: number }; costUsd?: number }): string {
  const cached = judge.cached > 0 ? ` (${judge.cached} cached)` : '';
  return `${judge.calls} call${judge.calls === 1 ? '' : 's'}${cached}, ${judge.usage.totalTokens} tokens, ${usd(judge.costUsd)}`;
}

/** Text for a table cell: strings as they are, anything else as compact JSON. */
export function cellText(value: unknown, max = 300): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * What a table cell shows of a row's input: the text that says most about it, the longest string
 * anywhere in it (the message, rather than `{"customer":{"name":"a…`, the first key), cut to `max`.
 * A string input is itself; an input with no string at all is its JSON.
 */
export function inputText(value: unknown, max = 300): string {
  let longest: string | undefined;
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (longest === undefined || v.length > longest.length) longest = v;
    } else if (v !== null && typeof v === 'object' && depth < 20) for (const item of Object.values(v)) walk(item, depth + 1);
  };
  walk(value, 0);
  return cellText(longest ?? value, max);
}

/** Text for a full view: strings as they are, objects as indented JSON. */
export function fullText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function duration(startedAt: string, endedAt: string | undefined): string {
  if (!endedAt) return '—';
  return ms(Date.parse(endedAt) - Date.parse(startedAt));
}

export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19);
}
