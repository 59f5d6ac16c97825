import { Markup, isPlainObject, toText } from './values.js';

/** A filter gets its evaluated arguments; `fail` reports a bad argument at the call site. */
export type Filter = (args: unknown[], fail: (message: string) => never) => unknown;

/** A filter a user registers in `agentmark.config.ts`: `filters: { name: (value, ...args) => … }`. */
export type UserFilter = (value: unknown, ...args: unknown[]) => unknown;

/** Text from JSX (`<>…</>`) counts as a string. */
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : value instanceof Markup ? value.text : undefined);

/**
 * A string filter: as in AgentMark, a value of another type (number, array, object, null…)
 * passes through unchanged, and then renders as any value does.
 */
const onString = (apply: (s: string, args: unknown[], fail: (message: string) => never) => unknown): Filter => ([value, ...args], fail) => {
  const s = asString(value);
  return s === undefined ? value : apply(s, args, fail);
};

/** Numbers as AgentMark's filters read them: numbers and numeric strings; anything else is NaN. */
const numeric = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN);

/**
 * The built-in filters. Behaviour on a value of another type (documented in the README):
 * upper, lower, capitalize, truncate, replace, urlencode return it unchanged; join returns a
 * non-array unchanged; abs and round read numbers and numeric strings, else give NaN; dump
 * writes any value as JSON.
 */
export const FILTERS: Readonly<Record<string, Filter>> = Object.freeze({
  upper: onString((s) => s.toUpperCase()),
  lower: onString((s) => s.toLowerCase()),
  capitalize: onString((s) => s.charAt(0).toUpperCase() + s.slice(1)),
  // `n` is checked whatever the value: `truncate(x)` is a mistake even when x is not a string.
  truncate: ([value, n], fail) => {
    const length = numeric(n);
    if (!Number.isInteger(length) || length < 0) fail('truncate(s, n) needs a whole number n >= 0');
    const s = asString(value);
    return s !== undefined && s.length > length ? `${s.slice(0, length)}...` : (s ?? value);
  },
  abs: ([n]) => Math.abs(numeric(n)),
  join: ([array, separator]) => {
    if (!Array.isArray(array)) return array;
    return array.map((item) => toText(item)).join(separator === undefined ? ', ' : toText(separator));
  },
  round: ([n, digits]) => {
    const places = digits === undefined ? 0 : Math.min(Math.max(Math.trunc(numeric(digits)), 0), 15);
    const value = numeric(n);
    if (!Number.isFinite(value) || Number.isNaN(places)) return Number.NaN;
    // Shifting by the decimal exponent rounds 1.005 to 1.01, where multiplying by 100 gives 1.
    const shifted = Number(`${Math.round(Number(`${value}e${places}`))}e-${places}`);
    return Number.isNaN(shifted) ? Math.round(value * 10 ** places) / 10 ** places : shifted;
  },
  replace: onString((s, [from, to]) => s.split(toText(from)).join(toText(to))),
  urlencode: onString((s) => encodeURIComponent(s)),
  dump: ([value]) => value === undefined ? undefined : JSON.stringify(value, (_key, v: unknown) => (v === null || isPlainObject(v) || Array.isArray(v) || typeof v !== 'object' ? v : toText(v))),
});

export const FILTER_NAMES: readonly string[] = Object.keys(FILTERS);

/** A user's filter in the built-in shape: called as `fn(value, ...args)`. */
export function fromUserFilter(name: string, fn: UserFilter): Filter {
  return (args, fail) => {
    let result: unknown;
    try {
      result = fn(args[0], ...args.slice(1));
    } catch (error) {
      fail(`filter "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (result instanceof Promise) fail(`filter "${name}" returned a Promise; filters must return their value directly`);
    return result;
  };
}

/** The filters a template can call: the built-ins, then the user's (which may replace one). */
export interface FilterSet {
  names: readonly string[];
  get(name: string): Filter | undefined;
}

export function filterSet(user: Readonly<Record<string, UserFilter>> = {}): FilterSet {
  const own = Object.entries(user).filter(([, fn]) => typeof fn === 'function');
  if (own.length === 0) return BUILT_IN_FILTERS;
  const wrapped = new Map(own.map(([name, fn]) => [name, fromUserFilter(name, fn)]));
  return {
    names: [...new Set([...FILTER_NAMES, ...wrapped.keys()])],
    get: (name) => wrapped.get(name) ?? getFilter(name),
  };
}

export const BUILT_IN_FILTERS: FilterSet = { names: FILTER_NAMES, get: (name) => getFilter(name) };

export function getFilter(name: string): Filter | undefined {
  return Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
}
