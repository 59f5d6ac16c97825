import { expect, test } from 'vitest';
import { createRunId, isValidRunId } from '../../src/store/index.js';

test('time first, then 6 hex digits', () => {
  const now = (): number => Date.parse('2026-11-30T03:15:00.000Z');
  expect(createRunId({ now, random: () => 0xab12cd / 0x1000000 })).toBe('20261130-031500.000-ab12cd');
  expect(createRunId({ now, random: () => 0 })).toBe('20261130-031500.000-000000');
  expect(createRunId({ now, random: () => 0.9999999999 })).toBe('20261130-031500.000-ffffff');
});

test('ids sort in time order', () => {
  const early = createRunId({ now: () => Date.parse('2026-01-02T09:59:59Z'), random: () => 0.9 });
  const late = createRunId({ now: () => Date.parse('2026-01-02T10:00:00Z'), random: () => 0.1 });
  expect([late, early].sort()).toEqual([early, late]);
});

test('ids of runs started within one second still sort in start order', () => {
  const first = createRunId({ now: () => Date.parse('2026-01-02T10:00:00.005Z'), random: () => 0.9 });
  const second = createRunId({ now: () => Date.parse('2026-01-02T10:00:00.870Z'), random: () => 0.1 });
  expect([second, first].sort()).toEqual([first, second]);
});

test('default id is valid and random', () => {
  const id = createRunId();
  expect(id).toMatch(/^\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}$/);
  expect(isValidRunId(id)).toBe(true);
  expect(isValidRunId('../x')).toBe(false);
  expect(isValidRunId('a/b')).toBe(false);
  expect(isValidRunId('')).toBe(false);
});

test('fingerprintFile: relative path with / and sha256 of the text', async () => {
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { fingerprintFile } = await import('../../src/store/index.js');
  const root = await mkdtemp(join(tmpdir(), 'agentmark-fp-'));
  await mkdir(join(root, 'prompts'));
  await writeFile(join(root, 'prompts', 'a.prompt.mdx'), 'abc');
  expect(await fingerprintFile(root, join(root, 'prompts', 'a.prompt.mdx'))).toEqual({
    path: 'prompts/a.prompt.mdx',
    hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  });
  await rm(root, { recursive: true });
});
