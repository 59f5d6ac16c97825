import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import { loadSettled } from '../../src/watch/settled.js';
import { tempProject } from '../helpers/temp-project.js';

let project: Awaited<ReturnType<typeof tempProject>> | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const FULL = '{ "version": "2.0.0", "mdxVersion": "1.0", "agentmarkPath": "." }\n';

test('a file read half-written during a save is read again once the save settles: no error shown', async () => {
  project = await tempProject({ 'agentmark.json': FULL.slice(0, 30) });
  const file = join(project.dir, 'agentmark.json');
  let loads = 0;
  const loaded = await loadSettled(
    () => {
      loads++;
      return loadProject(project?.dir ?? '');
    },
    // The editor finishes writing while the watcher waits.
    { settle: () => writeFile(file, FULL) },
  );
  expect(loaded.root).toBe(project.dir);
  expect(loads).toBe(2);
});

test('a real mistake fails twice and is reported; errors that are not about a file are not retried', async () => {
  project = await tempProject({ 'agentmark.json': FULL.slice(0, 30) });
  let settled = 0;
  await expect(loadSettled(() => loadProject(project?.dir ?? ''), { settle: async () => void settled++ })).rejects.toMatchObject({ code: 'CONFIG_INVALID_JSON' });
  expect(settled).toBe(1);
  let calls = 0;
  await expect(
    loadSettled(
      async () => {
        calls++;
        throw new Error('disk on fire');
      },
      { settle: async () => void settled++ },
    ),
  ).rejects.toThrow('disk on fire');
  expect([calls, settled]).toEqual([1, 1]);
});
