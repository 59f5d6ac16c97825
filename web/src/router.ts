import { useEffect, useState } from 'preact/hooks';

/**
 * Pages live in the URL's hash, so the same routes work on the server and in a report opened
 * from file://.
 */
export type Route =
  | { page: 'runs' }
  | { page: 'run'; id: string }
  | { page: 'row'; id: string; index: number }
  | { page: 'compare'; base: string; head: string }
  /** Runs side by side, the first the base (`#/grid/<base>/<head>/<head>…`). */
  | { page: 'grid'; ids: string[] }
  /** The review queue; `query` is the server's queue query (filter, eval, k, seed). */
  | { page: 'review'; id: string; query: string }
  | { page: 'missing'; hash: string };

export function parseRoute(hash: string): Route {
  const cut = hash.indexOf('?');
  const search = cut === -1 ? '' : hash.slice(cut + 1);
  const parts = (cut === -1 ? hash : hash.slice(0, cut)).replace(/^#\/?/, '').split('/').filter((p) => p !== '').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return '\u0000';
    }
  });
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'runs')) return { page: 'runs' };
  const [first, id, rows, index] = parts;
  if (first === 'runs' && id !== undefined && parts.length === 2) return { page: 'run', id };
  if (first === 'runs' && id !== undefined && rows === 'review' && parts.length === 3) return { page: 'review', id, query: search };
  if (first === 'grid' && parts.length >= 3) return { page: 'grid', ids: parts.slice(1) };
  if (first === 'compare' && id !== undefined && rows !== undefined && parts.length === 3) return { page: 'compare', base: id, head: rows };
  if (first === 'runs' && id !== undefined && rows === 'rows' && index !== undefined && /^\d+$/.test(index) && parts.length === 4) {
    return { page: 'row', id, index: Number(index) };
  }
  return { page: 'missing', hash };
}

export const href = {
  runs: (): string => '#/',
  run: (id: string): string => `#/runs/${encodeURIComponent(id)}`,
  row: (id: string, index: number): string => `#/runs/${encodeURIComponent(id)}/rows/${index}`,
  review: (id: string, query: Record<string, string | number | undefined> = {}): string => {
    const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined).map(([k, v]) => [k, String(v)])).toString();
    return `#/runs/${encodeURIComponent(id)}/review${search === '' ? '' : `?${search}`}`;
  },
  grid: (ids: readonly string[]): string => `#/grid/${ids.map(encodeURIComponent).join('/')}`,
  compare: (base: string, head: string): string => `#/compare/${encodeURIComponent(base)}/${encodeURIComponent(head)}`,
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(to: string): void {
  location.hash = to;
}
