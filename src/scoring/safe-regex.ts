import type { RE2JS as RE2JSClass } from 're2js';

type Re2 = typeof RE2JSClass;

/** A compiled user pattern that matches in time linear in the input. */
export interface SafeRegex {
  test(text: string): boolean;
  /** `/source/flags`, as shown in reasons. */
  shown: string;
}

/** A pattern RE2 cannot compile: the message, and a hint that names what is unsupported. */
export class UnsupportedPattern extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** What RE2 refuses that JavaScript accepts, each with the words a user can search the README for. */
const UNSUPPORTED: Array<[RegExp, string]> = [
  [/\\[1-9]|\\k</, 'backreferences (\\1, \\k<name>)'],
  [/\(\?<?[=!]/, 'lookaround ((?=, (?!, (?<=, (?<!)'],
  [/[*+?}]\+/, 'possessive quantifiers (a++)'],
];

const SYNTAX_HINT =
  'user patterns use RE2 syntax, which matches in linear time: no backreferences, no lookaround; ' +
  'write \\uXXXX or \\x{…} for code points; see README "Built-in scorers"';

/**
 * Compiles a user-supplied pattern with RE2 (the `re2js` port), whose matching time is linear
 * in the input: a pattern such as `(a+)+$` cannot hang a run the way a backtracking engine does,
 * and no timer can stop a synchronous `RegExp.test` on the main thread.
 *
 * JavaScript flags map to RE2's: `i`, `m`, `s`; `u` and `v` are what RE2 does anyway; `g`, `y`
 * and `d` change nothing for a single test and are dropped. JavaScript's `\uXXXX` and `\u{…}`
 * escapes are rewritten to RE2's `\x{…}` so patterns written for `RegExp` keep working.
 */
export async function compileSafeRegex(pattern: string, flags = ''): Promise<SafeRegex> {
  const { RE2JS } = await import('re2js');
  return compileWith(RE2JS, pattern, flags);
}

/** The synchronous core, for callers (ajv's `code.regExp`) that have loaded re2js already. */
export function compileWith(RE2JS: Re2, pattern: string, flags = ''): SafeRegex {
  let mask = 0;
  let kept = '';
  for (const flag of flags) {
    if (kept.includes(flag)) throw new UnsupportedPattern(`duplicate flag "${flag}" in "${flags}"`, 'give each flag once');
    if (flag === 'i') mask |= RE2JS.CASE_INSENSITIVE;
    else if (flag === 'm') mask |= RE2JS.MULTILINE;
    else if (flag === 's') mask |= RE2JS.DOTALL;
    else if (!'uvgyd'.includes(flag)) {
      throw new UnsupportedPattern(`unknown flag "${flag}" in "${flags}"`, 'flags: i (ignore case), m (^ $ per line), s (. matches newline)');
    }
    if ('ims'.includes(flag)) kept += flag;
  }
  let compiled: RE2JSClass;
  try {
    compiled = RE2JS.compile(rewriteUnicodeEscapes(pattern), mask);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const message = raw.replace(/^error parsing regexp: /, '');
    const named = UNSUPPORTED.find(([detect]) => detect.test(pattern));
    const hint = named ? `${named[1]} are not supported: ${SYNTAX_HINT}` : SYNTAX_HINT;
    throw new UnsupportedPattern(`unsupported or invalid pattern /${pattern}/: ${message}`, hint);
  }
  return { test: (text) => compiled.test(text), shown: `/${pattern}/${kept}` };
}

/** `\uXXXX` and `\u{X…}` → `\x{…}`; an escaped backslash (`\\u`) is left alone. */
function rewriteUnicodeEscapes(pattern: string): string {
  if (!pattern.includes('\\u')) return pattern;
  return pattern.replace(/\\(?:u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|([\s\S]))/g, (whole, four?: string, braced?: string) => {
    const hex = four ?? braced;
    return hex === undefined ? whole : `\\x{${hex}}`;
  });
}
