import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listRuns, pruneRuns, resolveRunRef } from '../../src/history/index.js';
import { RunStore } from '../../src/store/index.js';
import { makeRun, pass } from '../compare/make-run.js';
import { onTempDir } from '../store/fixtures.js';

let root: string;

const rows = [{ input: { q: 1 }, evals: { ok: pass() } }];
const ID = (n: number, suffix = 'aaaaaa'): string => `20261130-10000${n}.000-${suffix}`;

onTempDir(async (dir) => {
  root = dir;
  await makeRun(root, { id: ID(1), rows, evalNames: ['ok'], prompt: 'prompts/a.prompt.mdx', startedAt: '2026-11-01T10:00:01.000Z' });
  await makeRun(root, { id: ID(2), rows, evalNames: ['ok'], prompt: 'prompts/b.prompt.mdx', startedAt: '2026-11-20T10:00:02.000Z' });
  await makeRun(root, { id: ID(3), rows, evalNames: ['ok'], prompt: 'prompts/a.prompt.mdx', startedAt: '2026-11-30T10:00:03.000Z' });
  await makeRun(root, { id: ID(4, 'bbbbbb'), rows, evalNames: ['ok'], prompt: 'prompts/a.prompt.mdx', status: 'interrupted', startedAt: '2026-11-30T10:00:04.000Z' });
});

const resolveId = async (ref: string, prompt?: string): Promise<string> =>
  (await resolveRunRef(ref, { projectRoot: root, ...(prompt ? { prompt } : {}) })).manifest.id;

describe('run references', () => {
  test('latest and latest~N: newest finished runs, of the prompt in context when there is one', async () => {
    expect(await resolveId('latest')).toBe(ID(3));
    expect(await resolveId('latest~1')).toBe(ID(2));
    expect(await resolveId('latest~1', 'prompts/a.prompt.mdx')).toBe(ID(1));
    await expect(resolveId('latest~2', 'prompts/a.prompt.mdx')).rejects.toMatchObject({
      code: 'USAGE_UNKNOWN_RUN',
      message: 'latest~2: there are 2 finished runs of prompts/a.prompt.mdx',
      hint: 'the oldest is latest~1',
    });
  });

  test('full ids, unique prefixes, ambiguous prefixes and unknown ids (with the closest)', async () => {
    expect(await resolveId(ID(4, 'bbbbbb'))).toBe(ID(4, 'bbbbbb'));
    expect(await resolveId('20261130-100004')).toBe(ID(4, 'bbbbbb'));
    await expect(resolveId('20261130-1000')).rejects.toMatchObject({ code: 'USAGE_AMBIGUOUS_RUN' });
    const error = await resolveId('20261130-100003.000-aaaaab').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'USAGE_UNKNOWN_RUN', message: 'unknown run "20261130-100003.000-aaaaab"' });
    expect((error as { hint: string }).hint).toContain(`did you mean "${ID(3)}"?`);
  });

  test('a path to a run folder, e.g. one downloaded from CI', async () => {
    const run = await resolveRunRef(join('.agentmark', 'runs', ID(2)), { projectRoot: root });
    expect(run.manifest.id).toBe(ID(2));
    expect(run.dir).toBe(join(root, '.agentmark', 'runs', ID(2)));
    await expect(resolveRunRef('.agentmark', { projectRoot: root })).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_RUN' });
  });

  test('@<git-ref>: the newest finished run whose commit is the one git resolves the ref to', async () => {
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: root, encoding: 'utf8' }).trim();
    git('init', '-q');
    await writeFile(join(root, 'x.txt'), 'x');
    git('add', 'x.txt');
    git('commit', '-q', '-m', 'one');
    const first = git('rev-parse', 'HEAD');
    git('tag', 'v1');
    await writeFile(join(root, 'x.txt'), 'y');
    git('commit', '-q', '-am', 'two');
    await makeRun(root, { id: ID(5), rows, evalNames: ['ok'], commit: first });
    await makeRun(root, { id: ID(6), rows, evalNames: ['ok'], commit: git('rev-parse', 'HEAD') });
    expect(await resolveId('@v1')).toBe(ID(5));
    expect(await resolveId('@HEAD~1')).toBe(ID(5));
    expect(await resolveId('@HEAD')).toBe(ID(6));
    await expect(resolveId('@nope')).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_GIT_REF' });
    await expect(resolveId('@HEAD', 'prompts/a.prompt.mdx')).rejects.toMatchObject({ code: 'USAGE_UNKNOWN_RUN' });
  });
});

describe('listing and pruning', () => {
  test('runs newest first, by prompt, limited', async () => {
    const store = new RunStore(root);
    expect((await listRuns(store)).map((m) => m.id)).toEqual([ID(4, 'bbbbbb'), ID(3), ID(2), ID(1)]);
    expect((await listRuns(store, { prompt: 'prompts/a.prompt.mdx', limit: 2 })).map((m) => m.id)).toEqual([ID(4, 'bbbbbb'), ID(3)]);
  });

  test('--keep, --older-than, --dry-run; a recent run still marked running is kept', async () => {
    const store = new RunStore(root);
    await makeRun(root, { id: ID(7), rows, evalNames: ['ok'], status: 'running', startedAt: '2026-11-30T11:00:00.000Z' });
    const now = () => Date.parse('2026-11-30T12:00:00.000Z');
    const dry = await pruneRuns(store, { keep: 1, dryRun: true, now });
    expect(dry.map((m) => m.id)).toEqual([ID(4, 'bbbbbb'), ID(3), ID(2), ID(1)]);
    expect(await store.ids()).toHaveLength(5);
    const old = await pruneRuns(store, { olderThanDays: 5, now });
    expect(old.map((m) => m.id)).toEqual([ID(2), ID(1)]);
    expect(await store.ids()).toEqual([ID(7), ID(4, 'bbbbbb'), ID(3)]);
  });
});
