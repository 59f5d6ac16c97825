import { relative } from 'node:path';
import type { RunInfo } from '../experiment/events.js';
import type { StoredRun } from '../store/index.js';

/** What reporters know about a stored run, rebuilt from its manifest. */
export function storedRunInfo(run: StoredRun, cwd: string): RunInfo {
  const { manifest } = run;
  const duration = manifest.endedAt === undefined ? NaN : Date.parse(manifest.endedAt) - Date.parse(manifest.startedAt);
  return {
    runId: manifest.id,
    runDir: relative(cwd, run.dir) || '.',
    promptPath: manifest.prompt?.path ?? '?',
    promptName: manifest.prompt?.name ?? '?',
    model: manifest.model,
    evalNames: (manifest.summary?.evals ?? []).map((e) => e.name),
    startedAt: manifest.startedAt,
    ...(Number.isFinite(duration) ? { durationMs: duration } : {}),
  };
}
