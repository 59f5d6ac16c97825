import { request } from 'node:http';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANNOTATIONS_FILE } from '../../src/review/index.js';
import type { ReviewResponse } from '../../src/view/api-types.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { runCli } from '../helpers/run-cli.js';
import { REVIEW_RUN, reviewProject } from './review-run.js';

interface Reply {
  status: number;
  body: string;
}

function send(server: ViewServer, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let project: { dir: string; cleanup: () => Promise<void> };
let server: ViewServer;
let token: string;
const labelsPath = (): string => join(project.dir, '.agentmark', 'runs', REVIEW_RUN, ANNOTATIONS_FILE);

function post(body: unknown): Promise<Reply> {
  const text = JSON.stringify(body);
  return send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, {
    origin: `http://127.0.0.1:${server.port}`,
    'x-agentmark-token': token,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  }, text);
}

beforeEach(async () => {
  project = await reviewProject();
  server = await startViewServer({ projectRoot: project.dir, port: 0, reviewer: 'ana' });
  const shell = (await send(server, 'GET', '/', {})).body;
  const match = /<meta name="agentmark-session" content="([^"]*)">/.exec(shell) as RegExpExecArray;
  token = (JSON.parse((match[1] as string).replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { token: string }).token;
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

/** Every line of the annotations file, parsed: a line that is not JSON fails the test naming it. */
async function labelLines(): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(labelsPath(), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((line, i) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`line ${i + 1} is broken: ${line.slice(0, 120)}`);
    }
  });
}

describe('a torn annotations line (a kill or a full disk mid-append)', () => {
  it('is cut before the next label: the label lands on a line of its own and the review page reads', async () => {
    expect((await post({ index: 0, repeat: 0, eval: 'helpful', value: true })).status).toBe(200);
    await appendFile(labelsPath(), '{"row":"0f3a","index":3,"rep');
    const reply = await post({ index: 1, repeat: 0, eval: 'helpful', value: false });
    expect(reply.status, reply.body).toBe(200);
    expect((await labelLines()).map((line) => [line.index, line.value])).toEqual([[0, true], [1, false]]);
    const review = await send(server, 'GET', `/api/runs/${REVIEW_RUN}/review`, {});
    expect(review.status, review.body).toBe(200);
    expect((JSON.parse(review.body) as ReviewResponse).rows.map((row) => row.index)).toEqual([0, 1]);
  });

  it('a label answered with an error was not written: a retry adds no second copy', async () => {
    expect((await post({ index: 0, repeat: 0, eval: 'helpful', value: true })).status).toBe(200);
    // A hand edit inside the file: the labels cannot be read, so none can be added either.
    await appendFile(labelsPath(), '<<<<<<< HEAD\n');
    const before = await readFile(labelsPath(), 'utf8');
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await post({ index: 1, repeat: 0, eval: 'helpful', value: false });
      expect(reply).toEqual({ status: 409, body: JSON.stringify({ error: 'this line is not a label: not JSON' }) });
    }
    expect(await readFile(labelsPath(), 'utf8')).toBe(before);
  });
});

describe('reviewers labelling at once lose nothing', () => {
  it('a large annotate --import racing 20 viewer clients: every line whole, every label kept', async () => {
    // ~26 MB of import lines (13 MB interleaved): 52 of Node's 512 KiB write chunks.
    const note = 'n'.repeat(400);
    const imported = 60_000;
    const lines = Array.from({ length: imported }, (_, i) => JSON.stringify({ row: i % 8, eval: 'short', value: i % 2 === 0, note: `import-${i}-${note}`, reviewer: 'importer' }));
    await writeFile(join(project.dir, 'labels.jsonl'), `${lines.join('\n')}\n`);
    let importDone = false;
    const importing = runCli(['annotate', REVIEW_RUN, '--import', 'labels.jsonl'], { cwd: project.dir, timeoutMs: 170_000 }).then((result) => {
      importDone = true;
      return result;
    });
    // Each client labels until the import has ended (and at least until its own first label is in),
    // so the viewer's appends overlap the import's whole write.
    const answered: string[] = [];
    const client = async (c: number): Promise<void> => {
      for (let k = 0; k === 0 || !importDone; k++) {
        const note = `viewer-${c}-${k}`;
        const reply = await post({ index: (c + k) % 8, repeat: 0, eval: 'helpful', value: k % 2 === 0, note });
        expect(reply.status, reply.body).toBe(200);
        answered.push(note);
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, c) => client(c)));
    const result = await importing;
    expect([result.code, result.stderr]).toEqual([0, `Labelled ${imported} eval results in run ${REVIEW_RUN} (.agentmark/runs/${REVIEW_RUN}/annotations.jsonl)\n`]);
    const written = await labelLines();
    const notes = written.map((line) => line.note as string);
    expect(notes.filter((n) => n.startsWith('import-'))).toHaveLength(imported);
    expect(notes.filter((n) => n.startsWith('viewer-')).sort()).toEqual([...answered].sort());
    expect(written).toHaveLength(imported + answered.length);
  }, 180_000);
});
