import { canonicalJson } from '../canonical-json.js';
import type { StoredRun } from '../store/index.js';
import type { RunDescription, RunDifference, RunPerformance } from './types.js';

export function describeRun(run: StoredRun, rows: number): RunDescription {
  const m = run.manifest;
  return {
    id: m.id,
    dir: run.dir,
    prompt: { path: m.prompt?.path ?? '?', name: m.prompt?.name ?? '?', hash: m.prompt?.hash ?? '' },
    model: m.model,
    ...(m.dataset ? { dataset: { path: m.dataset.path, hash: m.dataset.hash } } : {}),
    settings: m.settings ?? {},
    ...(typeof m.options?.['agent'] === 'string' ? { agent: m.options['agent'] } : {}),
    ...(m.git ? { git: m.git } : {}),
    startedAt: m.startedAt,
    status: m.status,
    rows,
    repeat: typeof m.options?.repeat === 'number' ? m.options.repeat : 1,
    ...(m.options?.selection === undefined ? {} : { selection: m.options.selection }),
  };
}

const short = (hash: string): string => hash.slice(0, 12);
const commitText = (run: RunDescription): string => (run.git ? `${run.git.commit.slice(0, 12)}${run.git.dirty ? ' (dirty)' : ''}` : 'none');

/** What differs between two runs; comparing different prompts or models is the point, so this only reports. */
export function runDifferences(base: RunDescription, head: RunDescription): RunDifference[] {
  const out: RunDifference[] = [];
  if (base.prompt.hash !== head.prompt.hash || base.prompt.path !== head.prompt.path) {
    out.push({ field: 'prompt', base: `${base.prompt.path} ${short(base.prompt.hash)}`, head: `${head.prompt.path} ${short(head.prompt.hash)}` });
  }
  if (base.model !== head.model) out.push({ field: 'model', base: base.model, head: head.model });
  if (canonicalJson(base.settings) !== canonicalJson(head.settings)) {
    out.push({ field: 'settings', base: canonicalJson(base.settings), head: canonicalJson(head.settings) });
  }
  if (base.agent !== head.agent) out.push({ field: 'agent', base: base.agent ?? 'none (the prompt alone)', head: head.agent ?? 'none (the prompt alone)' });
  if (base.dataset?.hash !== head.dataset?.hash) {
    const text = (run: RunDescription): string => (run.dataset ? `${run.dataset.path} ${short(run.dataset.hash)}` : 'none');
    out.push({ field: 'dataset', base: text(base), head: text(head) });
  }
  if (commitText(base) !== commitText(head)) out.push({ field: 'commit', base: commitText(base), head: commitText(head) });
  return out;
}

export function runPerformance(run: StoredRun): RunPerformance {
  const summary = run.manifest.summary;
  return {
    ...(summary?.latencyMs.p50 === undefined ? {} : { latencyP50Ms: summary.latencyMs.p50 }),
    ...(summary?.latencyMs.p95 === undefined ? {} : { latencyP95Ms: summary.latencyMs.p95 }),
    inputTokens: summary?.usage.inputTokens ?? 0,
    outputTokens: summary?.usage.outputTokens ?? 0,
    ...(summary?.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
  };
}
