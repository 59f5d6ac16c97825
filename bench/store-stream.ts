/**
 * Scenario 2c (`store-stream`): the cost of streaming a run to the team store. Scenario 2b's run
 * (10,000 rows, 0 ms, c=50) with `AGENTMARK_STORE_URL` naming a PostgreSQL the bench starts
 * (`postgres-server.ts`), interleaved with the same run without a store. Each streamed run must
 * end `completed` in the store with its 10,000 rows. Target ≤ 1.1× the run without (issue 37).
 */
import { cliEnv } from './context.js';
import { measureNode } from './measure.js';
import { startPostgres } from './postgres-server.js';
import { createBenchProject } from './project.js';
import { median, metric } from './report.js';
import type { Scenario } from './scenarios.js';

const ROWS = 10_000;

export const storeStreamScenario: Scenario = {
  id: 'store-stream',
  title: '2c overhead streamed to the team store (10k rows, 0 ms, c=50)',
  async run(context, runs) {
    const notes: string[] = [];
    const project = await createBenchProject(ROWS);
    const pg = await startPostgres();
    const url = await pg.createDatabase('bench_stream');
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: url });
    try {
      const migrated = await measureNode([context.bin, 'store', 'migrate'], { cwd: project.dir, env: { ...cliEnv(context.server), AGENTMARK_STORE_URL: url }, timeoutMs: 60_000 });
      if (migrated.code !== 0) notes.push(`store migrate: exit ${migrated.code}: ${migrated.stderr.slice(0, 200)}`);
      await client.connect();
      const once = async (store: boolean) => {
        await project.clearRuns();
        context.server.latencyMs = 0;
        context.server.reset();
        const args = [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--concurrency', '50', '--no-cache'];
        const env = { ...cliEnv(context.server), ...(store ? { AGENTMARK_STORE_URL: url } : {}) };
        const run = await measureNode(args, { cwd: project.dir, env, timeoutMs: 300_000 });
        if (run.code !== 0) notes.push(`${store ? 'streamed' : 'plain'}: exit ${run.code}: ${run.stderr.slice(0, 200)}`);
        if (context.server.requests !== ROWS) notes.push(`server saw ${context.server.requests} requests, expected ${ROWS}`);
        if (store) {
          // The newest run in the store: completed, with every row.
          const { rows } = await client.query<{ id: string; status: string }>('SELECT id, status FROM agentmark_runs ORDER BY id DESC LIMIT 1');
          const last = rows[0];
          const count = last === undefined ? 0 : Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM agentmark_rows WHERE run_id = $1', [last.id])).rows[0]?.n);
          if (last?.status !== 'completed' || count !== ROWS) notes.push(`the store holds the run ${last?.status ?? 'nowhere'} with ${count} rows, expected completed with ${ROWS}`);
        }
        return run;
      };
      await once(false);
      await once(true);
      const plain: number[] = [];
      const streamed: number[] = [];
      const ratios: number[] = [];
      // CPU time (user + system) of the CLI process, when GNU time is there: far steadier than the
      // wall on a loaded machine. PostgreSQL's own work is another process's and is not in it.
      const plainCpu: number[] = [];
      const streamedCpu: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const a = await once(false);
        const b = await once(true);
        plain.push(a.wallMs);
        streamed.push(b.wallMs);
        ratios.push(b.wallMs / a.wallMs);
        if (a.cpuMs !== undefined && b.cpuMs !== undefined) {
          plainCpu.push(a.cpuMs);
          streamedCpu.push(b.cpuMs);
        }
        const cpu = a.cpuMs !== undefined && b.cpuMs !== undefined ? ` (CPU ${a.cpuMs.toFixed(0)} ms, ${b.cpuMs.toFixed(0)} ms)` : '';
        context.log(`  run ${i + 1}/${runs}: ${a.wallMs.toFixed(0)} ms without a store, ${b.wallMs.toFixed(0)} ms streamed to PostgreSQL${cpu}`);
      }
      const ideal = median(plain);
      const cpuMetrics = plainCpu.length === 0 ? [] : [metric('CPU streamed to the store', 'ms', streamedCpu, { ideal: median(plainCpu), idealText: 'the same run without a store' }), metric('CPU without a store', 'ms', plainCpu)];
      return {
        id: 'store-stream',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('wall streamed to the store', 'ms', streamed, { ideal, idealText: 'the same run without a store', target: { value: ideal * 1.1, source: 'issue 37', text: '≤ 1.1× without a store' } }),
          metric('wall without a store', 'ms', plain),
          ...cpuMetrics,
        ],
        details: {
          rows: ROWS,
          ratio: Math.round((median(streamed) / ideal) * 100) / 100,
          pairedRatio: Math.round(median(ratios) * 100) / 100,
          ...(plainCpu.length === 0 ? {} : { cpuRatio: Math.round((median(streamedCpu) / median(plainCpu)) * 100) / 100 }),
        },
      };
    } finally {
      await client.end().catch(() => undefined);
      await pg.stop();
      await project.cleanup();
    }
  },
};
