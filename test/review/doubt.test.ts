import { describe, expect, it } from 'vitest';
import { DOUBT_WORDS, voicesDoubt } from '../../src/review/index.js';

describe('voicesDoubt', () => {
  it('finds each word of the list, as a whole word, whatever its case', () => {
    for (const word of DOUBT_WORDS) expect(voicesDoubt(`The answer ${word.toUpperCase()} fits.`), word).toBe(true);
    expect(voicesDoubt('I am not\nsure it helps')).toBe(true);
  });

  it('leaves confident reasons, and words that only contain one, alone', () => {
    for (const reason of ['Clearly helpful.', 'The mighty river', 'It seemsly…', 'Nuclear answer', undefined]) expect(voicesDoubt(reason), String(reason)).toBe(false);
  });
});
