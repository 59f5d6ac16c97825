/**
 * bindEvals compiles the built-in scorers' `options` schemas without ajv's meta-schema check
 * (compileTrustedSchema), to keep it off the start-up path. This is that check, done once here.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { builtinScorers } from '../../src/scoring/index.js';

describe('built-in scorer option schemas', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });

  it.each(Object.values(builtinScorers).map((scorer) => [scorer.name, scorer] as const))('%s: options is a valid draft-07 schema', (_name, scorer) => {
    const valid = ajv.validateSchema(scorer.options);
    expect(ajv.errors ?? [], ajv.errorsText(ajv.errors)).toEqual([]);
    expect(valid).toBe(true);
  });
});
