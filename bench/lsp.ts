/**
 * Scenario 20 (`lsp`): `agentmark lsp --stdio` driven from a JSON-RPC client over stdio, in a
 * generated project of 200 prompts of 300 lines each (one shared 20-row dataset). Measured:
 * an edit of one line of one prompt's body, sent as an editor sends it (an incremental change,
 * one line, which makes an undeclared-prop error come and go) → its diagnostics published (the
 * server's default debounce included); the same with the whole text replaced (every line
 * changed: no target, for the record); a completion inside `evals: [` → its answer; and the
 * server's heap after 1,000, 5,500 and 10,000 line edits (typed in bursts of ten) (flat: the
 * project is loaded once and checked incrementally). Issue 42's targets: ≤ 50 ms, ≤ 30 ms,
 * memory flat.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { median, metric } from './report.js';
import type { Scenario } from './scenarios.js';

const PROMPTS = 200;
const LINES = 300;

/** A 300-line prompt: frontmatter with evals and a dataset, then a body of role blocks reading props. */
const HEAD_LINES = 14;

/** Body line `row` (0-based within the body) of a prompt: a role tag, or a line reading props. */
function bodyLine(row: number, variant: number, prop = 'topic'): string {
  return row % 3 === 0 ? '<User>' : row % 3 === 1 ? `Line ${row} (${variant}) for {props.name} about {props.${prop}}.` : '</User>';
}

function promptText(index: number, variant: number): string {
  const head = ['---', `name: p${index}`, 'text_config:', '  model_name: openai/gpt-4o-mini', 'input_schema:', '  type: object', '  properties:', '    name: { type: string }', '    topic: { type: string }', 'test_settings:', '  dataset: ../datasets/rows.jsonl', `  evals: [${variant % 2 === 0 ? 'polite' : 'politee'}, exact_match]`, '---', ''];
  const body: string[] = [];
  for (let i = 0; body.length < LINES - head.length - 1; i++) body.push(bodyLine(i, variant));
  return [...head, ...body, ''].join('\n');
}

async function makeProject(dir: string): Promise<void> {
  await mkdir(join(dir, 'prompts'), { recursive: true });
  await mkdir(join(dir, 'datasets'), { recursive: true });
  const scores = { polite: { type: 'boolean', description: 'Polite.', scorer: 'contains', options: { value: 'please' } } };
  await writeFile(join(dir, 'agentmark.json'), JSON.stringify({ agentmarkPath: 'prompts', scores }, null, 2));
  await writeFile(join(dir, 'datasets', 'rows.jsonl'), Array.from({ length: 20 }, (_, i) => JSON.stringify({ input: { name: `n${i}`, topic: `t${i}` }, expected_output: 'x' })).join('\n') + '\n');
  for (let i = 0; i < PROMPTS; i++) await writeFile(join(dir, 'prompts', `p${i}.prompt.mdx`), promptText(i, 0));
}

interface LoaderCheck {
  check(text: string): Promise<number>;
  done(): void;
}

/** validate's per-prompt check (the built dist/), run here on a prompt's text through the source overlay. */
async function loaderCheck(dir: string): Promise<LoaderCheck> {
  const dist = (file: string) => pathToFileURL(join(process.cwd(), 'dist', file)).href;
  const { loadProject } = (await import(dist('project/index.js'))) as { loadProject(dir: string): Promise<unknown> };
  const { checkPrompt } = (await import(dist('experiment/validate-project.js'))) as { checkPrompt(project: unknown, config: unknown, path: string): Promise<unknown> };
  const { setSourceOverlay } = (await import(dist('source-overlay.js'))) as { setSourceOverlay(overlay: { text(file: string): string | undefined } | undefined): void };
  const project = await loadProject(dir);
  const file = join(dir, 'prompts', 'p7.prompt.mdx');
  let current = '';
  setSourceOverlay({ text: (path) => (path === file ? current : undefined) });
  return {
    async check(text) {
      current = text;
      const start = performance.now();
      await checkPrompt(project, { path: undefined, files: [] }, file);
      return performance.now() - start;
    },
    done: () => setSourceOverlay(undefined),
  };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

export const lspScenario: Scenario = {
  id: 'lsp',
  title: '20 language server (200 prompts × 300 lines)',
  defaultRuns: 50,
  async run(context, runs) {
    const dir = await mkdtemp(join(tmpdir(), 'agentmark-bench-lsp-'));
    const notes: string[] = [];
    try {
      await makeProject(dir);
      const child = spawn(process.execPath, ['--expose-gc', context.bin, 'lsp', '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
      const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
      const waiting = new Map<number, () => void>();
      connection.onNotification('textDocument/publishDiagnostics', (params: { version?: number }) => {
        const done = waiting.get(params.version ?? -1);
        waiting.delete(params.version ?? -1);
        done?.();
      });
      connection.onRequest('client/registerCapability', () => null);
      connection.listen();
      const loadStart = performance.now();
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
      await connection.sendNotification('initialized', {});
      const uri = pathToFileURL(join(dir, 'prompts', 'p7.prompt.mdx')).href;
      let version = 1;
      const published = (v: number) => new Promise<void>((resolve) => waiting.set(v, resolve));
      const opened = published(1);
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mdx', version, text: promptText(7, 0) } });
      await opened;
      const loadMs = performance.now() - loadStart;
      // The client's copy of the text, so a line edit names the range it replaces, as an editor does.
      let lines = promptText(7, 0).split('\n');
      const lineChange = () => {
        // A "props line" of the body, a different one each time, spread over the whole body; every
        // other edit reads an undeclared prop (topik), so the diagnostics change each time.
        const rows = Math.floor((LINES - HEAD_LINES - 1) / 3);
        const row = 3 * ((version * 37) % rows) + 1;
        const line = HEAD_LINES + row;
        const text = bodyLine(row, version, version % 2 === 0 ? 'topic' : 'topik');
        const change = { range: { start: { line, character: 0 }, end: { line, character: lines[line]?.length ?? 0 } }, text };
        lines[line] = text;
        return change;
      };
      const wholeText = () => {
        const text = promptText(7, version);
        lines = text.split('\n');
        return { text };
      };
      const edit = async (change: () => object): Promise<number> => {
        version += 1;
        const seen = published(version);
        const start = performance.now();
        await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change()] });
        await seen;
        return performance.now() - start;
      };
      for (let i = 0; i < 5; i++) await edit(lineChange);
      // The ideal: the loader's own check of the same text in this process (what validate runs for
      // one prompt), interleaved with the measured edits so the machine's load hits both alike.
      const loaders = await loaderCheck(dir);
      const diagnostics: number[] = [];
      const ideal: number[] = [];
      for (let i = 0; i < runs; i++) {
        diagnostics.push(await edit(lineChange));
        ideal.push(await loaders.check(lines.join('\n')));
      }
      loaders.done();
      const whole: number[] = [];
      for (let i = 0; i < runs; i++) whole.push(await edit(wholeText));
      const completion: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        const items = (await connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 11, character: 10 } })) as unknown[];
        completion.push(performance.now() - start);
        if (items.length === 0) notes.push('completion inside evals: [ answered nothing');
      }
      // Memory: 10,000 edits typed in bursts of 10 (as fast as the pipe takes them); the burst's
      // last version is waited for, so about a thousand checks run, and every edit is applied.
      const rss: number[] = [];
      const heap: number[] = [];
      for (let i = 1; i <= 10_000; i++) {
        version += 1;
        const last = i % 10 === 0 ? published(version) : undefined;
        await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [lineChange()] });
        if (last) await last;
        if (i === 1_000 || i === 5_500 || i === 10_000) {
          rss.push(rssMb(child.pid ?? 0));
          heap.push(((await connection.sendRequest('agentmark/memory')) as { heapUsed: number }).heapUsed / 1048576);
        }
      }
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      connection.dispose();
      // RSS only grows until the heap settles: flat means the second half adds no more than the first.
      const growth = (heap[2] ?? NaN) - (heap[1] ?? NaN);
      return {
        id: 'lsp',
        title: this.title,
        status: notes.length === 0 ? 'ok' : 'failed',
        notes: [...new Set(notes)],
        metrics: [
          metric('line edit → diagnostics', 'ms', diagnostics, { ideal: median(ideal), idealText: "the loader's check of that text, in-process", target: { value: 50, source: 'issue 42', text: '≤ 50 ms' } }),
          metric('whole text replaced → diagnostics', 'ms', whole),
          metric('completion in evals: [', 'ms', completion, { target: { value: 30, source: 'issue 42', text: '≤ 30 ms' } }),
          metric('heap after GC, growth from edit 5,500 to 10,000', 'MB', [growth], { target: { value: 5, source: 'issue 42 (flat)', text: '< 5 MB' } }),
        ],
        details: { firstDiagnosticsMs: Math.round(loadMs), rssAt1000Mb: Math.round(rss[0] ?? 0), rssAt5500Mb: Math.round(rss[1] ?? 0), rssAt10000Mb: Math.round(rss[2] ?? 0), heapAt1000Mb: Math.round(heap[0] ?? 0), heapAt5500Mb: Math.round(heap[1] ?? 0), heapAt10000Mb: Math.round(heap[2] ?? 0) },
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
