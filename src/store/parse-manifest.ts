import type { RunManifest } from './types.js';

/**
 * A manifest's text as the current shape. Manifests written before the eval counts were
 * renamed hold `passCount` (results with a verdict) and `passed` (results that passed) per
 * eval; they are read as `verdictCount` and `passedCount`, so every reader sees one shape.
 * Throws what JSON.parse throws.
 */
export function parseManifest(text: string): RunManifest {
  const manifest = JSON.parse(text) as RunManifest;
  for (const evalSummary of manifest.summary?.evals ?? []) {
    const old = evalSummary as unknown as Record<string, unknown>;
    if (evalSummary.verdictCount === undefined && typeof old.passCount === 'number') {
      evalSummary.verdictCount = old.passCount;
      delete old.passCount;
    }
    if (evalSummary.passedCount === undefined && typeof old.passed === 'number') {
      evalSummary.passedCount = old.passed;
      delete old.passed;
    }
  }
  return manifest;
}
