/**
 * Text rendered from JSX written inside an expression, or a component's children; printed as
 * is. Children are rendered when first printed, so role tags among them produce their messages
 * where `{props.children}` stands in the component, not before the component's own.
 */
export class Markup {
  #text: string | undefined;
  #produce: (() => string) | undefined;
  constructor(text: string | (() => string)) {
    if (typeof text === 'string') this.#text = text;
    else this.#produce = text;
  }
  get text(): string {
    if (this.#text === undefined) {
      this.#text = this.#produce?.() ?? '';
      this.#produce = undefined;
    }
    return this.#text;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * How a value reads in a prompt: missing and null are empty (never "undefined"/"null"),
 * arrays are joined with no separator, objects are JSON.
 */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) {
    let text = '';
    for (const item of value) text += toText(item);
    return text;
  }
  return JSON.stringify(value) ?? '';
}

/** JS truthiness, restated so no user value is ever coerced through its own methods. */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'boolean') return value;
  return value !== undefined && value !== null;
}

export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null) return 0;
  if (typeof value === 'string') return Number(value);
  return Number.NaN;
}

/** `==` without JS's object-to-primitive coercion: same type compares strictly, null equals undefined. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === typeof b) return a === b;
  const primitive = (v: unknown) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
  if (primitive(a) && primitive(b)) return toNumber(a) === toNumber(b);
  return false;
}
