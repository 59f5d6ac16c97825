import { appendFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunIndex } from '../../src/view/run-index.js';
import { tempProject } from '../helpers/temp-project.js';
import { row } from './synthetic-run.js';

const line = (index: number, passed: boolean): string => `${JSON.stringify(row(index, { evals: { ok: { passed, score: passed ? 1 : 0 } } }))}\n`;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

describe('RunIndex', () => {
  it('reads only what was appended, waits for a torn last line, and starts over when the file shrank', async () => {
    const project = await tempProject();
    cleanup = project.cleanup;
    const path = join(project.dir, 'results.jsonl');
    await writeFile(path, line(0, true) + line(1, false));
    const index = new RunIndex(path);
    expect(await index.refresh()).toBe(0);
    expect([index.columns.index, index.columns.verdicts]).toEqual([[0, 1], 'PF']);
    expect(index.evalNames).toEqual(['ok']);

    const torn = line(2, true);
    await appendFile(path, torn.slice(0, 20));
    expect(await index.refresh()).toBe(2);
    expect(index.count).toBe(2);
    await appendFile(path, torn.slice(20));
    expect(await index.refresh()).toBe(2);
    expect(index.columns.index).toEqual([0, 1, 2]);
    expect(index.entriesFrom(2)).toEqual([[2, 0, 0, 12, null, 'P', [1], []]]);
    expect(index.liveSummary()).toMatchObject({ rows: 3, errored: 0, evals: [{ name: 'ok', passedCount: 2, verdictCount: 3 }] });

    // as `--resume` does after a kill: the file is cut back, then rows are appended again
    await truncate(path, line(0, true).length);
    await appendFile(path, line(3, true));
    expect(await index.refresh()).toBe(0);
    expect(index.columns.index).toEqual([0, 3]);
    expect((await index.rowsAt([1, 0])).map((r) => r.index)).toEqual([3, 0]);
    expect((await index.rowsInRange(0, 2)).map((r) => r.index)).toEqual([0, 3]);
  });

  it('reads a line longer than its 1 MB read buffer, and the lines around it', async () => {
    const long = `${JSON.stringify(row(1, { output: 'x'.repeat(3_000_000), evals: { ok: { passed: true } } }))}\n`;
    const project = await tempProject({ 'results.jsonl': line(0, false) + long + line(2, true) });
    cleanup = project.cleanup;
    const index = new RunIndex(join(project.dir, 'results.jsonl'), ['ok']);
    await index.refresh();
    expect([index.columns.index, index.columns.verdicts]).toEqual([[0, 1, 2], 'FPP']);
    expect(index.lengths[1]).toBe(long.length);
    expect((await index.rowsAt([2, 1])).map((r) => [r.index, String(r.output).length])).toEqual([[2, 'answer 2'.length], [1, 3_000_000]]);
  });

  it('keeps no live tallies for a finished run, whose summary is in its manifest', async () => {
    const project = await tempProject({ 'results.jsonl': line(0, true) });
    cleanup = project.cleanup;
    const index = new RunIndex(join(project.dir, 'results.jsonl'), ['ok']);
    await index.refresh();
    expect(index.liveSummary()).toEqual({ rows: 1, errored: 0, evals: [] });
  });
});
