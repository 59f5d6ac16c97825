import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { freshClone, gitIn } from '../helpers/fresh-clone.js';
import { REPO_ROOT } from '../helpers/temp-project.js';

// Each run loads the example's config (jiti, `ai`) on a loaded two-core machine.
const RUN_MS = 60_000;

let dir = '';
const cleanups: Array<() => Promise<void>> = [];

const git = (...args: string[]): string => gitIn(dir, ...args);

/** A fresh clone of the example (test/helpers/fresh-clone.ts); its cleanup runs after all tests. */
async function freshCloneDir(): Promise<string> {
  const { dir: copy, cleanup } = await freshClone();
  cleanups.push(cleanup);
  return copy;
}

beforeAll(async () => {
  dir = await freshCloneDir();
}, RUN_MS);
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

interface TableRow {
  index: number;
  cells: Record<string, string>;
}

/** The report table's body rows, each cell under its column's header. */
function tableRows(stdout: string): TableRow[] {
  const split = (line: string): string[] => line.split('│').slice(1, -1).map((cell) => cell.trim());
  const header = stdout.split('\n').find((line) => /^│ # +│/.test(line));
  if (header === undefined) throw new Error(`no report table in:\n${stdout}`);
  const names = split(header);
  return stdout
    .split('\n')
    .filter((line) => /^│ \d+ +│/.test(line))
    .map((line) => {
      const cells = Object.fromEntries(split(line).map((cell, i) => [names[i] ?? String(i), cell]));
      return { index: Number(cells['#']), cells };
    });
}

/** Every eval cell that is not a pass, a score or a skip, as `row <i> <eval>: <cell>`. */
function failures(rows: TableRow[], evals: string[]): string[] {
  return rows.flatMap((row) =>
    evals.filter((name) => /^(FAIL|ERROR)/.test(row.cells[name] ?? '')).map((name) => `row ${row.index} ${name}: ${row.cells[name]}`),
  );
}

/** The headline command of the README, run in the fresh clone with no OpenAI settings at all. */
async function runExample(name: string): Promise<{ code: number | null; stdout: string; rows: TableRow[] }> {
  // COLUMNS wide enough for the whole table, read cell by cell below (piped without it, the report is fitted to 100 columns).
  const result = await runCli(['run-experiment', `prompts/${name}.prompt.mdx`], { cwd: dir, env: { COLUMNS: '1000' }, timeoutMs: RUN_MS });
  // Nothing on stderr but progress: no error, no warning. (Off a terminal, a plain progress line
  // comes at most every 10% and 250 ms, so a run slowed by a loaded machine may print some.)
  expect(result.stderr.replace(/^\d+\/\d+ rows \(\d+%\)[^\n]*\n/gm, '')).toBe('');
  expect(git('status', '--porcelain')).toBe('');
  // Every answer came from the committed replay folder: nothing was called, nothing cached live.
  expect(existsSync(join(dir, '.agentmark', 'cache'))).toBe(false);
  return { code: result.code, stdout: result.stdout, rows: tableRows(result.stdout) };
}

const summary = (stdout: string): string => stdout.slice(stdout.indexOf('\nSUMMARY\n')).replace(/\d{8}-\d{6}\.\d{3}-[0-9a-f]{6}/g, '<run-id>');

describe('the root example, offline from its sample responses in a fresh clone', () => {
  it('classify-intent exits 1: row 11 is answered "Account deletion", which fails both evals', { timeout: RUN_MS }, async () => {
    const run = await runExample('classify-intent');
    expect(run.code).toBe(1);
    expect(run.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(failures(run.rows, ['exact_intent', 'known_intent'])).toEqual([
      'row 11 exact_intent: FAIL (0.00 - output "account deletion" does not equal expected "account")',
      'row 11 known_intent: FAIL (0.00 - output "Account deletion" is not one of: refund, shipping, account, product_question, other)',
    ]);
    expect(summary(run.stdout)).toContain(
      [
        '  Rows:     12 run, 0 errored, 12 cached, 0 pre-generated',
        '  Evals:',
        '    exact_intent  pass 91.7% (11/12, 95% CI 61.5%–99.8%), raw mean 0.92 (95% CI 0.73–1.00), 0 errors',
        '    known_intent  pass 91.7% (11/12, 95% CI 61.5%–99.8%), raw mean 0.92 (95% CI 0.73–1.00), 0 errors',
      ].join('\n'),
    );
    expect(summary(run.stdout)).toContain('    ✘ evals: 2 of 24 eval results did not pass\n    ✔ errors: no row errored\n  Result:   FAILED\n');
  });

  it('support-chat exits 1: rows 0 and 1 end by the customer\'s stop, row 2 runs to max_turns', { timeout: RUN_MS }, async () => {
    const run = await runExample('support-chat');
    expect(run.code).toBe(1);
    expect(run.rows.map((row) => [row.index, row.cells['AI Result']?.slice(0, 9)])).toEqual([[0, '[2t stop]'], [1, '[2t stop]'], [2, '[4t max] ']]);
    expect(failures(run.rows, ['conversation_ended', 'within_turns', 'no_blame'])).toEqual([
      'row 2 conversation_ended: FAIL (0.00 - ended by max_turns (4))',
      'row 2 within_turns: FAIL (0.00 - 4 user turns exceeds max 3)',
    ]);
    expect(summary(run.stdout)).toContain('  Simulator: 9 calls, 0 tokens, $0.0000\n');
  });

  it('extract-order exits 1: row 11 extracts "book" where "book set" is expected', { timeout: RUN_MS }, async () => {
    const run = await runExample('extract-order');
    expect(run.code).toBe(1);
    expect(run.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(failures(run.rows, ['valid_order', 'fields_match'])).toEqual([
      'row 11 fields_match: FAIL (0.75 - 3/4 fields match; mismatched: product)',
    ]);
    expect(run.rows[11]?.cells['AI Result']).toBe('{"order_id":"M-1293","product":"book","issue_type":"missing","refund_requested":false}');
    expect(summary(run.stdout)).toContain('    ✘ evals: 1 of 24 eval results did not pass\n    ✔ errors: no row errored\n  Result:   FAILED\n');
  });

  it('order-status exits 0: every row looks the order up; only row 5, which asks for it, cancels', { timeout: RUN_MS }, async () => {
    const run = await runExample('order-status');
    expect(run.code).toBe(0);
    expect(run.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(failures(run.rows, ['used_lookup', 'fast_enough'])).toEqual([]);
    expect(run.rows.map((row) => row.cells.used_lookup)).toEqual(
      run.rows.map((row) => `PASS (1.00 - called lookup_order${row.index === 5 ? ', cancel_order' : ''})`),
    );
    // Replayed answers have no live latency to judge.
    expect(new Set(run.rows.map((row) => row.cells.fast_enough))).toEqual(new Set(['SKIP (no live latency (cached))']));
    expect(summary(run.stdout)).toContain('  Rows:     10 run, 0 errored, 10 cached, 0 pre-generated\n');
    expect(summary(run.stdout)).toContain('    ✔ evals: all 10 eval results passed\n    ✔ errors: no row errored\n  Result:   PASSED\n');
  });

  it('support-agent (an agent in code, two model calls a row) exits 1: it never cancels, so row 5, which asks for it, fails used_lookup', { timeout: RUN_MS }, async () => {
    const run = await runExample('support-agent');
    expect(run.code).toBe(1);
    expect(run.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(failures(run.rows, ['used_lookup', 'mentions_next_step', 'two_model_calls'])).toEqual([
      'row 5 used_lookup: FAIL (0.50 - called lookup_order; missing: cancel_order)',
    ]);
    expect(run.rows[0]?.cells['AI Result']).toBe('Order A-1001 is shipped. We will email you before it arrives on 2026-12-03.');
    expect(new Set(run.rows.map((row) => row.cells.two_model_calls))).toEqual(new Set(['PASS (1.00 - 2 model calls within max 2)']));
    expect(summary(run.stdout)).toContain('  Rows:     10 run, 0 errored, 10 cached, 0 pre-generated\n');
    expect(summary(run.stdout)).toContain('    ✘ evals: 1 of 30 eval results did not pass\n    ✔ errors: no row errored\n  Result:   FAILED\n');
  });

  it('support-reply exits 0: the curt reply of row 10 scores low, and the means still clear the thresholds', { timeout: RUN_MS }, async () => {
    const run = await runExample('support-reply');
    expect(run.code).toBe(0);
    expect(run.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(failures(run.rows, ['mentions_next_step', 'no_blame', 'reply_length', 'tone', 'fast_enough'])).toEqual([]);
    const low = run.rows.filter((row) => !/^score: 1, /.test(row.cells.reply_length ?? '') || !/^score: 1, /.test(row.cells.tone ?? ''));
    expect(low.map((row) => [row.index, row.cells['AI Result'], row.cells.reply_length, row.cells.tone])).toEqual([
      [
        10,
        'Fine. We will look into it.',
        'score: 0.15, reason: 6 words',
        'score: 0, label: curt, reason: The reply is short and gives no empathy or detail; it reads as curt.',
      ],
    ]);
    expect(summary(run.stdout)).toContain(
      [
        '    ✔ evals: all 24 eval results passed',
        '    ✔ errors: no row errored',
        '    ✔ score:reply_length: reply_length: mean score 0.929 >= 0.8',
        '    ✔ score:tone: tone: mean score 0.917 >= 0.8',
        '  Result:   PASSED',
      ].join('\n'),
    );
  });
});

/** The replay folder the example's agentmark.json names. */
const REPLAY = 'examples/responses';

/** Every file of a folder with its bytes, to compare before and after. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(folder)).sort()) files[name] = await readFile(join(folder, name), 'utf8');
  return files;
}

/** The rows and summary of a `--format json` report: what a run showed, without its id or timings. */
function results(stdout: string): unknown {
  const documents = JSON.parse(stdout) as Array<{ summary: unknown; rows: unknown[] }>;
  return documents.map(({ summary: s, rows }) => ({ summary: s, rows }));
}

describe('the root example with a live server', () => {
  it('a live --no-cache run writes only to the git-ignored live cache, never to the replay folder; offline results stay', { timeout: 3 * RUN_MS }, async () => {
    const copy = await freshCloneDir();
    const offline = () => runCli(['run-experiment', 'prompts', '--format', 'json'], { cwd: copy, env: {}, timeoutMs: RUN_MS });
    const recorded = await snapshot(join(copy, REPLAY));
    const before = await offline();
    const prompts = (JSON.parse(before.stdout) as unknown[]).length;
    expect(prompts).toBe(execFileSync('git', ['ls-files', 'prompts/*.prompt.mdx'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').length);

    const server = await startOpenAIServer();
    cleanups.push(() => server.close());
    const live = await runCli(['run-experiment', 'prompts', '--no-cache', '--format', 'jsonl'], {
      cwd: copy,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' },
      timeoutMs: RUN_MS,
    });
    expect(live.stderr).not.toMatch(/^error:/m);
    const liveRows = live.stdout.trim().split('\n').map((text) => JSON.parse(text) as { cached: boolean });
    const offlineRows = (JSON.parse(before.stdout) as Array<{ rows: unknown[] }>).flatMap((document) => document.rows);
    expect(liveRows).toHaveLength(offlineRows.length);
    // Every row went live (judges and tool steps add more calls).
    expect(server.requests.length).toBeGreaterThanOrEqual(liveRows.length);
    expect(liveRows.filter((row) => row.cached)).toEqual([]);
    expect((await readdir(join(copy, '.agentmark', 'cache'))).length).toBeGreaterThan(0);
    expect(await snapshot(join(copy, REPLAY))).toEqual(recorded);
    expect(gitIn(copy, 'status', '--porcelain')).toBe('');

    // The offline example shows what it showed before the live run, still from the replay folder.
    const after = await offline();
    expect(after.code).toBe(before.code);
    expect(results(after.stdout)).toEqual(results(before.stdout));
    const rows = (JSON.parse(after.stdout) as Array<{ rows: Array<{ cached: boolean }> }>).flatMap((document) => document.rows);
    expect(rows).toHaveLength(offlineRows.length);
    expect(rows.filter((row) => !row.cached)).toEqual([]);
    expect(gitIn(copy, 'status', '--porcelain')).toBe('');
  });
});
