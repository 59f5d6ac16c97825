/**
 * Bench scenarios 7 and 7b: `agentmark compare` of two 100,000-row runs (issue 11: < 5 s,
 * < 300 MB) and of two 1,000,000-row runs (issue 30: ≤ 15 s, ≤ 400 MB), in each output format.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { metric, type Metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';
import { writeProjectFile, writeRun } from './generated-runs.js';

/** Creates two runs of `rows` rows in a temporary project; returns its folder. */
export async function createCompareProject(rows = 100_000): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-compare-'));
  await writeProjectFile(root);
  await writeRun(root, '20261130-000000.000-aaaaaa', rows, 1, 0.8);
  await writeRun(root, '20261130-000001.000-bbbbbb', rows, 2, 0.78);
  return root;
}

interface CompareSize {
  id: string;
  title: string;
  rows: number;
  wallMs: number;
  rssMb: number;
  source: string;
  /** Formats measured besides json (json is the one held to the target). */
  formats: string[];
}

function compareScenarioOf(size: CompareSize) {
  const label = size.rows.toLocaleString('en-US');
  return {
    id: size.id,
    title: size.title,
    defaultRuns: 3,
    async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
      context.log(`  writing two ${label}-row runs (unmeasured)`);
      const root = await createCompareProject(size.rows);
      const metrics: Metric[] = [];
      const notes: string[] = [];
      const details: Record<string, number> = { rows: size.rows };
      try {
        for (const format of ['json', ...size.formats]) {
          const wall: number[] = [];
          const rss: number[] = [];
          const out = join(root, `out.${format === 'markdown' ? 'md' : format}`);
          const args = [context.bin, 'compare', 'latest~1', 'latest', '--format', format, '--output', out];
          const times = format === 'json' ? runs : 1;
          for (let i = 0; i < times; i += 1) {
            const run = await measureNode(args, { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 300_000 });
            context.log(`  ${format} ${i + 1}/${times}: ${run.wallMs.toFixed(0)} ms, peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB, exit ${run.code}`);
            if (run.code !== 0) notes.push(`${format}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
            wall.push(run.wallMs);
            if (run.peakRssMb !== undefined) rss.push(run.peakRssMb);
          }
          details[`${format}OutputBytes`] = (await stat(out).catch(() => ({ size: 0 }))).size;
          const targets = format === 'json';
          metrics.push(metric(format === 'json' ? 'wall' : `wall (${format})`, 'ms', wall, targets ? { target: { value: size.wallMs, source: size.source, text: `≤ ${size.wallMs / 1000} s` } } : {}));
          if (rss.length > 0) metrics.push(metric(format === 'json' ? 'peak RSS' : `peak RSS (${format})`, 'MB', rss, targets ? { target: { value: size.rssMb, source: size.source, text: `≤ ${size.rssMb} MB` } } : {}));
        }
      } finally {
        await rm(root, { recursive: true, force: true });
      }
      return { id: size.id, title: size.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details };
    },
  };
}

export const compareScenario = compareScenarioOf({
  id: 'compare', title: '7 compare two 100,000-row runs', rows: 100_000, wallMs: 5000, rssMb: 300, source: 'issue 11', formats: [],
});

export const compare1mScenario = compareScenarioOf({
  id: 'compare1m', title: '7b compare two 1,000,000-row runs', rows: 1_000_000, wallMs: 15_000, rssMb: 400, source: 'issue 30', formats: ['table', 'markdown'],
});
