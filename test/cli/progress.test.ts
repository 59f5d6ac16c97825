import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, useOpenAIServer } from '../helpers/openai-server.js';
import { runInTerminal } from '../helpers/run-in-terminal.js';
import { cliProject, normalize, type CliProject } from './cli-project.js';

// Every answer takes this long, so with one row in flight rows end at least this far apart:
// more than the terminal's 100 ms between redraws and the 250 ms between plain lines, so each
// row's update is due whatever the machine's load (a floor set by the server, not a ceiling).
const LATENCY_MS = 300;
const server = useOpenAIServer({ handler: (request) => ({ text: request.lastUserText, latencyMs: LATENCY_MS }) });

let project: CliProject;
beforeEach(async () => {
  project = await cliProject();
});
afterEach(() => project.cleanup());

const ARGS = ['run-experiment', 'prompts/echo.prompt.mdx', '--no-cache', '--concurrency', '1'];
const CLEAR_LINE = '\r\x1b[2K';

async function onTerminal(extra: string[]): Promise<{ code: number | null; output: string }> {
  const terminal = runInTerminal([...ARGS, ...extra], { cwd: project.dir, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' } });
  const { code } = await terminal.exited;
  return { code, output: terminal.output };
}

describe('the progress line', () => {
  it('on a terminal: drawn at the start, redrawn in place as rows finish, erased before the report', { timeout: 60_000 }, async () => {
    const { code, output } = await onTerminal([]);
    expect(code).toBe(1);
    const tableAt = output.indexOf('┌');
    const progress = output.slice(0, tableAt);
    // Every draw starts by going back to the line's start and erasing it: one line, updated in place.
    const draws = progress.split(CLEAR_LINE);
    expect(draws.shift()).toBe('');
    expect(draws.map((draw) => /^(\d)\/3 rows \(\d+%\)/.exec(draw)?.[0])).toEqual([
      '0/3 rows (0%)',
      '1/3 rows (33%)',
      '2/3 rows (67%)',
      '3/3 rows (100%)',
      // the erase before the report
      undefined,
    ]);
    expect(draws.at(-1)).toBe('');
    // One row is not a measured rate: no ETA yet (src/report/progress-reporter.ts).
    expect(draws[1]).toMatch(/^1\/3 rows \(33%\) · pass 100\.0% · \d+\.\d rows\/s$/);
    expect(draws[3]).toMatch(/^3\/3 rows \(100%\) · pass 66\.7% · \d+\.\d rows\/s$/);
    // The report that follows is untouched by it.
    expect(output.slice(tableAt)).not.toContain('\x1b');
    expect(output.slice(tableAt)).toContain('\r\nSUMMARY\r\n  Rows:     3 run, 0 errored, 0 cached, 0 pre-generated\r\n');
  });

  it('-q on a terminal: no progress line at all, the same report', { timeout: 60_000 }, async () => {
    const quiet = await onTerminal(['-q']);
    expect(quiet.code).toBe(1);
    expect(quiet.output).not.toContain('\x1b');
    expect(quiet.output).not.toMatch(/rows \(/);
    expect(quiet.output).toMatch(/^┌───┬/);
    expect(quiet.output).toContain('\r\nSUMMARY\r\n  Rows:     3 run, 0 errored, 0 cached, 0 pre-generated\r\n');
  });

  it('off a terminal: plain lines on stderr as rows finish (at most 4 a second), none with -q', { timeout: 60_000 }, async () => {
    const plain = await project.run(ARGS, { server });
    expect(plain.code).toBe(1);
    expect(plain.stderr).not.toMatch(/[\r\x1b]/);
    expect(plain.stderr.split('\n').map((line) => /^\d\/3 rows \(\d+%\)/.exec(line)?.[0] ?? line)).toEqual([
      '1/3 rows (33%)',
      '2/3 rows (67%)',
      '3/3 rows (100%)',
      '',
    ]);
    const quiet = await project.run([...ARGS, '--quiet'], { server });
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toBe('');
    expect(normalize(quiet.stdout)).toBe(normalize(plain.stdout));
  });

  it('off a terminal, a short run ends on the final count (no stale line with an ETA)', { timeout: 60_000 }, async () => {
    // The first answer is slow enough for a first line to be due; the others come at once, inside
    // the 250 ms between plain lines, as in a short run.
    let calls = 0;
    const quickAfterFirst = await startOpenAIServer({ handler: (request) => ({ text: request.lastUserText, latencyMs: calls++ === 0 ? LATENCY_MS : 0 }) });
    const plain = await project.run(ARGS, { server: quickAfterFirst }).finally(() => quickAfterFirst.close());
    expect(plain.code).toBe(1);
    const lines = plain.stderr.split('\n');
    expect(lines.shift()).toMatch(/^1\/3 rows \(33%\) · pass 100\.0% · \d+\.\d rows\/s$/);
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toMatch(/^3\/3 rows \(100%\) · pass 66\.7% · \d+\.\d rows\/s$/);
  });

  it('on a terminal, a short run shows the final count last, then erases the line', { timeout: 60_000 }, async () => {
    let calls = 0;
    const quickAfterFirst = await startOpenAIServer({ handler: (request) => ({ text: request.lastUserText, latencyMs: calls++ === 0 ? LATENCY_MS : 0 }) });
    const terminal = runInTerminal(ARGS, { cwd: project.dir, env: { OPENAI_BASE_URL: quickAfterFirst.url, OPENAI_API_KEY: 'test' } });
    const { code } = await terminal.exited.finally(() => quickAfterFirst.close());
    expect(code).toBe(1);
    const draws = terminal.output.slice(0, terminal.output.indexOf('┌')).split(CLEAR_LINE);
    expect(draws.at(-1)).toBe('');
    expect(draws.at(-2)).toMatch(/^3\/3 rows \(100%\) · pass 66\.7% · \d+\.\d rows\/s$/);
  });
});

