/**
 * Scenario 1b (issue 30): spawn → first model request of `run-experiment` on a one-row dataset,
 * as the bench server sees it (`firstRequestAt`), interleaved with `node -e 0`:
 * (a) a plain prompt with no config; (b) the same project with a TypeScript `agentmark.config.ts`
 * (one scorer, importing a local TS file) and no transform cache (`.agentmark/config-cache/`
 * removed before each run: the first run after an edit); (c) the same with the cache warm.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { measureNode, type ChildRun } from './measure.js';
import { createBenchProject, type BenchProject } from './project.js';
import { median, metric, type Metric } from './report.js';
import { cliEnv, type BenchContext } from './context.js';
import type { Scenario } from './scenarios.js';

const CONFIG = `import { normalise } from './lib/normalise';

interface Params {
  output: unknown;
  expectedOutput?: unknown;
}

export default {
  scorers: {
    same: ({ output, expectedOutput }: Params) => ({ score: normalise(output) === normalise(expectedOutput) ? 1 : 0 }),
  },
};
`;
const NORMALISE = 'export function normalise(value: unknown): string {\n  return String(value ?? \'\').trim().toLowerCase();\n}\n';

/** Adds the TS config and a score bound to its scorer, to the eval list the prompt already runs. */
async function addConfig(project: BenchProject): Promise<void> {
  await mkdir(join(project.dir, 'lib'), { recursive: true });
  await writeFile(join(project.dir, 'lib', 'normalise.ts'), NORMALISE);
  await writeFile(join(project.dir, 'agentmark.config.ts'), CONFIG);
  const json = join(project.dir, 'agentmark.json');
  const manifest = JSON.parse(await readFile(json, 'utf8')) as { scores: Record<string, unknown> };
  manifest.scores['same'] = { type: 'boolean', description: 'The answer equals the expected output, ignoring case.' };
  await writeFile(json, `${JSON.stringify(manifest, null, 2)}\n`);
  const prompt = join(project.dir, project.promptPath);
  await writeFile(prompt, (await readFile(prompt, 'utf8')).replace('evals: [exact]', 'evals: [exact, same]'));
}

type Variant = 'plain' | 'configCold' | 'configWarm';

export const startupRunScenario: Scenario = {
  id: 'startup-run',
  title: '1b start-up to the first request (1 row)',
  defaultRuns: 7,
  async run(context: BenchContext, runs: number) {
    const notes: string[] = [];
    const plain = await createBenchProject(1);
    const withConfig = await createBenchProject(1);
    await addConfig(withConfig);
    const samples: Record<Variant | 'node', number[]> = { node: [], plain: [], configCold: [], configWarm: [] };
    const walls: Record<Variant, number[]> = { plain: [], configCold: [], configWarm: [] };
    const once = async (project: BenchProject, variant: Variant, measured: boolean): Promise<void> => {
      await project.clearRuns();
      if (variant === 'configCold') await rm(join(project.dir, '.agentmark', 'config-cache'), { recursive: true, force: true });
      context.server.latencyMs = 0;
      context.server.reset();
      const args = [context.bin, 'run-experiment', project.promptPath, '--format', 'jsonl', '--output', '/dev/null', '--quiet', '--no-cache'];
      const run: ChildRun = await measureNode(args, { cwd: project.dir, env: cliEnv(context.server), timeoutMs: 30_000 });
      const first = context.server.firstRequestAt;
      if (run.code !== 0) notes.push(`${variant}: exit ${run.code}: ${run.stderr.split('\n').slice(0, 3).join(' | ')}`);
      if (context.server.requests !== 1) notes.push(`${variant}: server saw ${context.server.requests} requests, expected 1`);
      if (!measured) return;
      if (first === undefined) notes.push(`${variant}: no request reached the server`);
      else samples[variant].push(first - run.startedAt);
      walls[variant].push(run.wallMs);
    };
    try {
      const nodeOpts = { cwd: process.cwd(), env: { PATH: process.env.PATH }, timeoutMs: 10_000 };
      // Unmeasured warm-ups: the file cache, the prompt cache, the config's transform cache.
      await measureNode(['-e', '0'], nodeOpts);
      await once(plain, 'plain', false);
      await once(withConfig, 'configWarm', false);
      for (let i = 0; i < runs; i += 1) {
        // Interleaved, so drift in the machine's load hits all four alike.
        samples.node.push((await measureNode(['-e', '0'], nodeOpts)).wallMs);
        await once(plain, 'plain', true);
        await once(withConfig, 'configCold', true);
        await once(withConfig, 'configWarm', true);
      }
    } finally {
      await plain.cleanup();
      await withConfig.cleanup();
    }
    const nodeMs = median(samples.node);
    const paired = (list: number[]): number => Math.round(median(list.map((ms, i) => ms - (samples.node[i] ?? 0))));
    context.nodeStartMs ??= nodeMs;
    const ideal = { ideal: nodeMs, idealText: 'node -e 0' };
    const metrics: Metric[] = [
      metric('node -e 0', 'ms', samples.node),
      metric('no config', 'ms', samples.plain, { ...ideal, target: { value: 200, source: 'issue 30', text: '≤ 200 ms' } }),
      metric('TS config, warm cache', 'ms', samples.configWarm, { ...ideal, target: { value: 300, source: 'issue 30', text: '≤ 300 ms' } }),
      metric('TS config, no cache', 'ms', samples.configCold, ideal),
    ];
    return {
      id: 'startup-run',
      title: this.title,
      status: notes.length === 0 ? 'ok' : 'failed',
      notes: [...new Set(notes)],
      metrics,
      details: {
        // Each run less the node -e 0 just before it: the CLI's own share, which load moves less.
        ownMsPairedMedianNoConfig: paired(samples.plain),
        ownMsPairedMedianConfigWarm: paired(samples.configWarm),
        ownMsPairedMedianConfigCold: paired(samples.configCold),
        wallMsMedianNoConfig: Math.round(median(walls.plain)),
        wallMsMedianConfigWarm: Math.round(median(walls.configWarm)),
        wallMsMedianConfigCold: Math.round(median(walls.configCold)),
      },
    };
  },
};
