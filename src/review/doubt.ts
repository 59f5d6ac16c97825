/**
 * Words with which a judge's reason voices doubt about its own verdict: rows whose reason holds
 * one are worth a person's look first (the viewer's review queue, filter "doubt"). Matched as
 * whole words or phrases, case-insensitively.
 */
export const DOUBT_WORDS: readonly string[] = [
  'unsure',
  'not sure',
  'uncertain',
  'unclear',
  'ambiguous',
  'might',
  'may be',
  'maybe',
  'possibly',
  'perhaps',
  'hard to say',
  'hard to tell',
  'difficult to determine',
  'borderline',
  'arguably',
  'seems',
];

const PATTERN = new RegExp(`\\b(?:${DOUBT_WORDS.map((word) => word.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');

/** True when `reason` holds one of DOUBT_WORDS. */
export function voicesDoubt(reason: string | undefined): boolean {
  return reason !== undefined && PATTERN.test(reason);
}
