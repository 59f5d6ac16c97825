import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import { tempProject } from '../helpers/temp-project.js';
import { makeLocalRun } from './store-runs.js';

const ID = '20261203T080000Z-a';
let project: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  project = await tempProject({ 'agentmark.json': '{ "version": "2.0.0" }\n' });
});
afterEach(() => project.cleanup());

async function* linesOf(text: string): AsyncGenerator<string> {
  for (const line of text.split('\n').slice(0, -1)) yield line;
}

test("a local copy's results file is matched against the record by hashing it, and replaced whole only by lines that match it", async () => {
  const integrity = await makeLocalRun(project.dir, ID, 3);
  const dir = join(project.dir, '.agentmark', 'runs', ID);
  const path = join(dir, 'results.jsonl');
  const good = await readFile(path, 'utf8');
  const storage = new LocalStorage(project.dir);
  const files = (await readdir(dir)).sort();
  expect(await storage.resultsMatch(ID, integrity)).toBe(true);

  const damaged = good.replace('"answer 1"', '"answer one"');
  await writeFile(path, damaged);
  expect(await storage.resultsMatch(ID, integrity)).toBe(false);
  // Lines that are not the run's (here: the damaged ones) change nothing.
  await expect(storage.replaceResults(ID, linesOf(damaged), integrity)).rejects.toMatchObject({
    code: 'STORE_RESULTS_MISMATCH',
    message: `run ${ID}: the lines sent to replace its copy do not match its integrity record (3 rows); the copy is left as it was`,
  });
  expect(await readFile(path, 'utf8')).toBe(damaged);
  expect((await readdir(dir)).sort()).toEqual(files);

  await storage.replaceResults(ID, linesOf(good), integrity);
  expect(await readFile(path, 'utf8')).toBe(good);
  expect((await readdir(dir)).sort()).toEqual(files);
  await storage.checkRun(ID);
});
