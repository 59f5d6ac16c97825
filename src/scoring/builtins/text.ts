import type { EvalParams } from '../types.js';

/** Text scorers see objects as JSON, so an object prompt can still be matched as text. */
export function outputText(output: EvalParams['output']): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/** The row's expected output as text, or undefined when the row has none. */
export function expectedText(expected: unknown): string | undefined {
  if (expected === undefined || expected === null) return undefined;
  return typeof expected === 'string' ? expected : JSON.stringify(expected);
}

/** Like expectedText, but a scorer that cannot work without it says so (recorded as the eval's error). */
export function requireExpectedText(expected: unknown, scorer: string): string {
  const text = expectedText(expected);
  if (text === undefined) throw new Error(`${scorer} needs expected_output on the row (or a value in its options)`);
  return text;
}

/** Keeps reasons to one readable line however long the output is. */
export function quote(text: string, max = 60): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

export interface NormalizeOptions {
  ignoreCase?: boolean;
  trim?: boolean;
}

export function normalizeText(text: string, options: NormalizeOptions, trimByDefault: boolean): string {
  let result = (options.trim ?? trimByDefault) ? text.trim() : text;
  if (options.ignoreCase) result = result.toLowerCase();
  return result;
}

/** Parses text as JSON; objects (object prompts) are already parsed. */
export function parseJson(value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof value !== 'string') return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
