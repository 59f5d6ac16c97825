import { isPlainObject, toNumber, toText } from './values.js';

/** A filter gets its evaluated arguments; `fail` reports a bad argument at the call site. */
export type Filter = (args: unknown[], fail: (message: string) => never) => unknown;

const text = (value: unknown): string => toText(value);

/** The functions a template may call. Nothing else is callable. */
export const FILTERS: Readonly<Record<string, Filter>> = Object.freeze({
  upper: ([s]) => text(s).toUpperCase(),
  lower: ([s]) => text(s).toLowerCase(),
  capitalize: ([s]) => {
    const value = text(s);
    return value.charAt(0).toUpperCase() + value.slice(1);
  },
  truncate: ([s, n], fail) => {
    const value = text(s);
    const length = toNumber(n);
    if (!Number.isInteger(length) || length < 0) fail('truncate(s, n) needs a whole number n >= 0');
    return value.length > length ? `${value.slice(0, length)}...` : value;
  },
  abs: ([n]) => Math.abs(toNumber(n)),
  join: ([array, separator], fail) => {
    if (array === undefined || array === null) return '';
    if (!Array.isArray(array)) fail('join(arr, sep) needs an array');
    return (array as unknown[]).map(text).join(separator === undefined ? ', ' : text(separator));
  },
  round: ([n, digits]) => {
    const places = digits === undefined ? 0 : Math.trunc(toNumber(digits));
    const factor = 10 ** Math.min(Math.max(places, 0), 15);
    return Math.round(toNumber(n) * factor) / factor;
  },
  replace: ([s, from, to]) => text(s).split(text(from)).join(text(to)),
  urlencode: ([s]) => encodeURIComponent(text(s)),
  dump: ([value]) => JSON.stringify(value === undefined ? null : value, (_key, v: unknown) => (isPlainObject(v) || Array.isArray(v) || typeof v !== 'object' ? v : text(v))),
});

export const FILTER_NAMES: readonly string[] = Object.keys(FILTERS);

export function getFilter(name: string): Filter | undefined {
  return Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
}
