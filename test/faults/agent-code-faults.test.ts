/**
 * Agent code cannot kill or corrupt the run: what it returns that cannot be stored, a promise it
 * rejects and never awaits, a throw in one of its timers are each that row's error naming the
 * agent; the props it gets are its own copy, per row and repeat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { useOpenAIServer } from '../helpers/openai-server.js';

/** Waits for the row's signal (the row's error aborts it): the agent is in flight when its stray error arrives. */
const agents = `const inFlight = (ctx: any) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late')));
export default {
  agents: {
    unstorable: (ctx: any) => {
      if (ctx.props.word === 'beta') {
        const circular: any = { a: 1 };
        circular.self = circular;
        return circular;
      }
      if (ctx.props.word === 'gamma') return { output: { toJSON() { throw new Error('toJSON refused'); } } };
      return ctx.props.word;
    },
    stray: (ctx: any) => {
      if (ctx.props.word === 'alpha') {
        Promise.reject(new Error('nobody awaited me'));
        return inFlight(ctx);
      }
      if (ctx.props.word === 'beta') {
        setTimeout(() => {
          throw new Error('thrown in a timer');
        }, 0);
        return inFlight(ctx);
      }
      return ctx.props.word;
    },
    late: (ctx: any) => {
      // Thrown once the row has returned: no agent row is in flight to take it.
      if (ctx.props.word === 'gamma') setTimeout(() => {
        throw new Error('thrown after the row');
      }, 0);
      return ctx.props.word;
    },
    editor: (ctx: any) => {
      const seen = ctx.props.word;
      ctx.props.word = 'edited by ' + ctx.row.repeat;
      ctx.row.metadata.edited = true;
      return seen;
    },
  },
};
`;

const server = useOpenAIServer();
let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

type Row = Record<string, unknown>;

async function lastRun(): Promise<{ rows: Row[]; status: unknown }> {
  const made = project as CliProject;
  const runId = (await made.runIds()).at(-1) as string;
  const manifest = JSON.parse(await made.read(`.agentmark/runs/${runId}/manifest.json`)) as { status: unknown };
  const rows = (await made.results(runId)).sort((a, b) => (a.index as number) - (b.index as number) || (a.repeat as number) - (b.repeat as number));
  return { rows, status: manifest.status };
}

describe('agent code that would break the run', () => {
  it('a circular output and a toJSON that throws are each their row\'s error naming the agent; the run ends with exit 1, not an internal error', async () => {
    project = await cliProject({ 'agentmark.config.ts': agents });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'unstorable', '--format', 'json', '-q']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('internal error');
    const { rows, status } = await lastRun();
    expect(status).toBe('completed');
    expect(rows.map((row) => [row.index, row.output ?? null, row.errorCode ?? null, row.error ?? null])).toEqual([
      [0, 'alpha', null, null],
      [1, null, 'AGENT_FAILED', 'agent "unstorable" failed: its output cannot be stored as JSON: Converting circular structure to JSON (return a string, or an object of plain JSON values)'],
      [2, null, 'AGENT_FAILED', 'agent "unstorable" failed: its output cannot be stored as JSON: toJSON refused (return a string, or an object of plain JSON values)'],
    ]);
    expect((JSON.parse(result.stdout) as { summary: unknown }).summary).toMatchObject({ rows: 3, errored: 2 });
  });

  it('a stray rejection and a throw in a timer are the error of the row in flight, naming the agent; the process goes on and records every row', async () => {
    project = await cliProject({ 'agentmark.config.ts': agents });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'stray', '--concurrency', '1', '--format', 'json', '-q']);
    expect(result.code).toBe(1);
    const { rows, status } = await lastRun();
    expect(status).toBe('completed');
    expect(rows.map((row) => [row.index, row.output ?? null, row.errorCode ?? null, row.error ?? null])).toEqual([
      [0, null, 'AGENT_FAILED', 'agent "stray" failed: a promise rejected and never awaited while its row ran: nobody awaited me'],
      [1, null, 'AGENT_FAILED', 'agent "stray" failed: an error thrown outside it (in a timer or a callback) while its row ran: thrown in a timer'],
      [2, 'gamma', null, null],
    ]);
  });

  it('ctx.props and ctx.row.metadata are the agent\'s own copies per row and repeat: edits are not stored, repeat 2 never sees repeat 1\'s, compare pairs every row with a plain run', async () => {
    project = await cliProject({ 'agentmark.config.ts': agents });
    const plain = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '-q'], { server });
    expect(plain.code).toBe(1);
    const edited = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'editor', '--repeat', '2', '--concurrency', '1', '-q']);
    expect(edited.code).toBe(1);
    const { rows } = await lastRun();
    expect(rows.map((row) => [row.index, row.repeat, row.output, row.input, row.metadata])).toEqual([
      [0, 0, 'alpha', { word: 'alpha' }, {}],
      [0, 1, 'alpha', { word: 'alpha' }, {}],
      [1, 0, 'beta', { word: 'beta' }, {}],
      [1, 1, 'beta', { word: 'beta' }, {}],
      [2, 0, 'gamma', { word: 'gamma' }, {}],
      [2, 1, 'gamma', { word: 'gamma' }, {}],
    ]);
    const [first, second] = await project.runIds();
    const compared = await project.run(['compare', first as string, second as string, '--format', 'json']);
    expect(compared.code).toBe(0);
    expect((JSON.parse(compared.stdout) as { pairing: unknown }).pairing).toMatchObject({ paired: 3, onlyInBase: 0, onlyInHead: 0 });
  });

  it('a throw in a timer when no agent row is in flight is printed, the rows are all recorded, and the run cannot exit 0', async () => {
    project = await cliProject({ 'agentmark.config.ts': agents, 'datasets/words.jsonl': '{"input": {"word": "alpha"}, "expected_output": "alpha"}\n{"input": {"word": "gamma"}, "expected_output": "gamma"}\n' });
    const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', '--agent', 'late', '--concurrency', '1', '--format', 'json', '-q']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: an error was thrown outside any awaited code (a timer or a callback), while no agent row was running: Error: thrown after the row\n');
    expect(result.stderr).toContain('  hint: the command went on; it exits 2, not 0\n');
    const { rows, status } = await lastRun();
    expect(status).toBe('completed');
    expect(rows.map((row) => [row.output, row.error ?? null])).toEqual([['alpha', null], ['gamma', null]]);
    expect((JSON.parse(result.stdout) as { summary: { passed: boolean } }).summary.passed).toBe(true);
  });
});
