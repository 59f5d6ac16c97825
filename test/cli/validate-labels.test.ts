import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { LABEL_PROJECT } from './label-project.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('agentmark validate: dataset labels against the score schemas', () => {
  it('a label that does not fit is an error at its value, with what is wrong and a hint; exit 2', async () => {
    const project = await tempProject(LABEL_PROJECT);
    cleanup = project.cleanup;
    const result = await runCli(['validate'], { cwd: project.dir });
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'datasets/names.jsonl:2:49: labels.polite: "polite" is a boolean score (scores.polite in agentmark.json): a label is true or false, got 1',
      '  hint: a label is the verdict a person gave: fix it to fit the score schema, or remove it',
      'datasets/names.jsonl:3:63: labels.tone: "tone" is a categorical score (scores.tone in agentmark.json) with labels "warm", "cold", got "hot"',
      '  hint: a label is the verdict a person gave: fix it to fit the score schema, or remove it',
      'datasets/names.jsonl:4:49: labels.politte: no eval or score schema is named "politte"; did you mean "polite"?',
      '  hint: a label is the verdict a person gave: fix it to fit the score schema, or remove it',
    ]);
    expect(result.stderr).toBe('3 problems found in 1 prompt, 1 dataset (4 rows)\n');
    expect(result.code).toBe(2);
  });

  it('labels that fit: exit 0', async () => {
    const project = await tempProject({ ...LABEL_PROJECT, 'datasets/names.jsonl': '{"input": {"name": "Ada"}, "labels": {"polite": true, "tone": "cold"}}\n{"input": {"name": "Bob"}, "labels": {"tone": "warm"}}\n' });
    cleanup = project.cleanup;
    expect(await runCli(['validate'], { cwd: project.dir })).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (2 rows) in .\n' });
  });
});
