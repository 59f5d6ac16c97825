import { describe, expect, it } from 'vitest';
import { LABEL_PROJECT } from '../cli/label-project.js';
import { tempProject } from '../helpers/temp-project.js';
import { useLspSession } from './lsp-session.js';

const { attach } = useLspSession();

const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const HINT = '\nhint: a label is the verdict a person gave: fix it to fit the score schema, or remove it';

describe('agentmark lsp: dataset labels against the score schemas', () => {
  it("a label that does not fit is a diagnostic at its value, validate's message; fixed in the buffer, it goes", async () => {
    const project = await tempProject(LABEL_PROJECT);
    const lsp = await attach(project);
    await lsp.open('prompts/greet.prompt.mdx');
    const diagnostics = await lsp.open('datasets/names.jsonl');
    expect(diagnostics.map((d) => [d.code, d.range, d.severity, d.message])).toEqual([
      ['DATASET_BAD_LABEL', range(1, 48, 49), 1, `labels.polite: "polite" is a boolean score (scores.polite in agentmark.json): a label is true or false, got 1${HINT}`],
      ['DATASET_BAD_LABEL', range(2, 62, 67), 1, `labels.tone: "tone" is a categorical score (scores.tone in agentmark.json) with labels "warm", "cold", got "hot"${HINT}`],
      ['DATASET_BAD_LABEL', range(3, 48, 52), 1, `labels.politte: no eval or score schema is named "politte"; did you mean "polite"?${HINT}`],
    ]);
    const fixed = LABEL_PROJECT['datasets/names.jsonl'].replace('"polite": 1', '"polite": true').replace('"hot"', '"cold"').replace('politte', 'polite');
    expect(await lsp.change('datasets/names.jsonl', fixed)).toEqual([]);
  });
});
