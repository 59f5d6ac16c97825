import { createHash } from 'node:crypto';
import { LocalStorage } from '../../src/store/local/local-storage.js';
import type { ResultsIntegrity } from '../../src/store/index.js';
import { manifest, row } from './fixtures.js';

/** sha256 of lines each followed by `\n`, with node:crypto (independent of ResultsHash). */
export function integrityOf(lines: string[]): ResultsIntegrity {
  const hash = createHash('sha256');
  for (const line of lines) hash.update(`${line}\n`);
  return { rows: lines.length, sha256: hash.digest('hex') };
}

/** A completed local run of `rows` rows (finish order = dataset order), in `projectDir`'s .agentmark/runs/. */
export async function makeLocalRun(projectDir: string, id: string, rows: number, extra: { branch?: string; commit?: string; prompt?: string } = {}): Promise<ResultsIntegrity> {
  const storage = new LocalStorage(projectDir);
  const base = manifest(id);
  await storage.createRun({
    ...base,
    ...(extra.prompt === undefined ? {} : { prompt: { ...base.prompt, path: extra.prompt } }),
    ...(extra.commit === undefined ? {} : { git: { commit: extra.commit, dirty: false, ...(extra.branch === undefined ? {} : { branch: extra.branch }) } }),
  });
  const hash = createHash('sha256');
  for (let start = 0; start < rows; start += 10_000) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows, start + 10_000); i += 1) lines.push(JSON.stringify(row(i)));
    for (const line of lines) hash.update(`${line}\n`);
    await storage.appendRows(id, start, lines);
  }
  const integrity = { rows, sha256: hash.digest('hex') };
  await storage.complete(id, { status: 'completed', endedAt: '2026-11-30T03:20:00.000Z', integrity });
  await storage.close();
  return integrity;
}
