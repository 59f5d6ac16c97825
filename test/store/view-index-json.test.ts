import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readViewIndex } from '../../src/store/view-index-reader.js';
import { readViewIndexJson } from '../../src/store/view-index-json.js';
import type { RunManifest } from '../../src/store/types.js';
import { tempProject } from '../helpers/temp-project.js';
import { row, writeRun } from '../view/synthetic-run.js';

const ID = '20261201-120000.000-eeeeee';
const folders: Array<{ cleanup: () => Promise<void> }> = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await folder.cleanup();
});

/** A run of `n` rows with two evals: `tone` labels rows with text holding commas and quotes, `exact` labels none. */
async function runFolder(n: number): Promise<{ dir: string; expect: Parameters<typeof readViewIndex>[1] }> {
  const project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
  folders.push(project);
  const rows = Array.from({ length: n }, (_, i) => row(i, { costUsd: i % 3 === 0 ? 0.000125 : undefined, evals: { exact: { passed: i % 4 !== 0, score: i % 4 === 0 ? 0 : 1 }, tone: { passed: true, score: 0.5 + i / 100, ...(i % 2 === 0 ? { label: `calm, "${i}"` } : {}) } } }));
  await writeRun(project.dir, { id: ID, evalNames: ['exact', 'tone'], rows });
  const dir = join(project.dir, '.agentmark', 'runs', ID);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as RunManifest;
  return { dir, expect: { resultsPath: join(dir, 'results.jsonl'), ...(manifest.integrity ? { integrity: manifest.integrity } : {}) } };
}

describe('the view index as JSON text, made from the column files without parsing them', () => {
  it('parses to the columns readViewIndex gives, labels with commas and an eval that labels nothing included', async () => {
    const { dir, expect: expectation } = await runFolder(25);
    const text = await readViewIndexJson(dir, expectation);
    const columns = (await readViewIndex(dir, expectation))?.columns;
    expect(columns?.index).toHaveLength(25);
    expect(columns?.labels[1]?.[0]).toBe('calm, "0"');
    expect(JSON.parse(text as string)).toEqual(columns);
  });

  it('a run with no rows has no index (the writer makes one from the first row): none as text either', async () => {
    const { dir, expect: expectation } = await runFolder(0);
    expect([await readViewIndexJson(dir, expectation), await readViewIndex(dir, expectation)]).toEqual([undefined, undefined]);
  });

  it('is undefined when the index cannot stand for the rows: a column short of a value, or another integrity record', async () => {
    const { dir, expect: expectation } = await runFolder(10);
    expect(await readViewIndexJson(dir, { ...expectation, integrity: { rows: 10, sha256: '0'.repeat(64) } })).toBeUndefined();
    const latency = join(dir, 'view-index', 'latency');
    await writeFile(latency, (await readFile(latency, 'utf8')).replace(/^[^,]*,/, ''));
    expect(await readViewIndexJson(dir, expectation)).toBeUndefined();
    expect(await readViewIndex(dir, expectation)).toBeUndefined();
  });
});
