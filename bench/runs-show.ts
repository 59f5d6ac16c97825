/**
 * Bench scenario 13 (issue 30): `agentmark runs show <run>` of a generated 1,000,000-row run,
 * written to /dev/null, in each report format: wall and peak RSS. json is held to "streams
 * with flat memory" (peak RSS ≤ 250 MB, the 1M-row run's own bound); the other formats are
 * figures (html stops with USAGE_REPORT_TOO_LARGE: `details.htmlTooLarge`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './measure.js';
import { metric, type Metric, type ScenarioResult } from './report.js';
import type { BenchContext } from './context.js';
import { writeProjectFile, writeRun } from './generated-runs.js';

const ROWS = 1_000_000;
const ID = '20261130-000000.000-aaaaaa';
const FORMATS = ['json', 'jsonl', 'csv', 'junit', 'markdown', 'html', 'table'] as const;
const RSS_TARGET_MB = 250;

export const runsShow1mScenario = {
  id: 'runs-show-1m',
  title: '7c runs show a 1,000,000-row run',
  defaultRuns: 3,
  async run(context: BenchContext, runs: number): Promise<ScenarioResult> {
    context.log('  writing a 1,000,000-row run (unmeasured)');
    const root = await mkdtemp(join(tmpdir(), 'agentmark-bench-runs-show-'));
    const metrics: Metric[] = [];
    const notes: string[] = [];
    const details: Record<string, number> = { rows: ROWS };
    try {
      await writeProjectFile(root);
      await writeRun(root, ID, ROWS, 1, 0.8);
      for (const format of FORMATS) {
        const wall: number[] = [];
        const rss: number[] = [];
        const times = format === 'json' ? runs : 1;
        for (let i = 0; i < times; i += 1) {
          // Exit 0: the generated run passed. html cannot hold a million rows in one page: it
          // must say so (exit 2, USAGE_REPORT_TOO_LARGE), which is recorded, not a failure.
          const run = await measureNode([context.bin, 'runs', 'show', ID, '--format', format, '--output', '/dev/null'], { cwd: root, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeoutMs: 600_000 });
          context.log(`  ${format} ${i + 1}/${times}: ${run.wallMs.toFixed(0)} ms, peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB, exit ${run.code}`);
          const tooLarge = format === 'html' && run.code === 2 && run.stderr.includes('do not fit in one HTML file');
          if (tooLarge) details.htmlTooLarge = 1;
          else if (run.code !== 0) notes.push(`${format}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
          wall.push(run.wallMs);
          if (run.peakRssMb !== undefined) rss.push(run.peakRssMb);
        }
        const json = format === 'json';
        metrics.push(metric(`wall (${format})`, 'ms', wall));
        if (rss.length > 0) metrics.push(metric(`peak RSS (${format})`, 'MB', rss, json ? { target: { value: RSS_TARGET_MB, source: 'issue 30', text: `≤ ${RSS_TARGET_MB} MB (flat)` } } : {}));
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
    return { id: 'runs-show-1m', title: this.title, status: notes.length === 0 ? 'ok' : 'failed', notes, metrics, details };
  },
};
