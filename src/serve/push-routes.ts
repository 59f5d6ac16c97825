import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAgentmarkError } from '../errors/index.js';
import type { AnnotationLine } from '../review/types.js';
import type { RunStorage } from '../store/index.js';
import type { ManifestPatch, ResultsIntegrity, RunManifest } from '../store/types.js';
import { sendJson } from '../view/view-routes.js';
import { readBody } from './read-body.js';

/** A batch of rows is one request: `runs push` sends 10,000 (~3 MB of 300-byte rows). */
export const MAX_PUSH_BYTES = 64 << 20;

/**
 * The writer's routes, under `/api/store/`: the storage contract's writes (src/store/storage.ts)
 * over HTTP, so `agentmark runs push --to https://…` (src/serve/http-storage.ts) copies a run
 * into the server's store with the same copy as into a database (copyRun): created `running`,
 * rows each at its place (a retried batch is stored once), and `completed` only when the store's
 * rows match the integrity record sent. A store error answers its code, message and hint.
 *
 *   GET  /api/store/runs/<id>              { manifest: RunManifest | null, rows, annotations: label lines }
 *   POST /api/store/runs                   a manifest (JSON): the run, created
 *   POST /api/store/runs/<id>/rows?from=n  lines (application/x-ndjson): stored from place n
 *   POST /api/store/runs/<id>/complete     { patch } with its integrity record: the run ended
 *   POST /api/store/runs/<id>/annotations  { lines }: label lines appended
 *   POST /api/store/blobs                  a text (text/plain): stored under its sha256
 */
export async function pushRoute(storage: RunStorage, req: IncomingMessage, res: ServerResponse, segments: readonly string[], query: URLSearchParams): Promise<void> {
  const [, , what, id, part, ...rest] = segments;
  try {
    if (rest.length > 0) return sendJson(res, 404, { error: 'not found' });
    if (what === 'blobs' && id === undefined && req.method === 'POST') {
      const body = await readBody(req, MAX_PUSH_BYTES);
      if (!body.ok) return tooLarge(res);
      return sendJson(res, 200, { hash: await storage.putBlob(body.text) });
    }
    if (what !== 'runs') return sendJson(res, 404, { error: 'not found' });
    if (id === undefined && req.method === 'POST') {
      const manifest = await jsonBody<RunManifest>(req, res);
      if (manifest === undefined) return;
      await storage.createRun(manifest);
      return sendJson(res, 201, { id: manifest.id });
    }
    if (id === undefined) return sendJson(res, 404, { error: 'not found' });
    if (part === undefined && req.method === 'GET') {
      const manifest = await storage.getRun(id);
      if (manifest === undefined) return sendJson(res, 200, { manifest: null, rows: 0, annotations: [] });
      return sendJson(res, 200, { manifest, rows: await storage.rowCount(id), annotations: await storage.readAnnotations(id) });
    }
    if (part === 'rows' && req.method === 'POST') {
      const from = /^\d{1,10}$/.test(query.get('from') ?? '') ? Number(query.get('from')) : undefined;
      if (from === undefined) return sendJson(res, 400, { error: '"from" takes the place of the first line sent, e.g. from=0' });
      const body = await readBody(req, MAX_PUSH_BYTES);
      if (!body.ok) return tooLarge(res);
      const lines = body.text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      const added = await storage.appendRows(id, from, lines);
      return sendJson(res, 200, { added, rows: await storage.rowCount(id) });
    }
    if (part === 'complete' && req.method === 'POST') {
      const body = await jsonBody<{ patch?: ManifestPatch & { integrity: ResultsIntegrity } }>(req, res);
      if (body === undefined) return;
      if (typeof body.patch !== 'object' || body.patch === null || typeof body.patch.integrity !== 'object') return sendJson(res, 400, { error: 'the body is { "patch": { …, "integrity": { "rows", "sha256" } } }' });
      return sendJson(res, 200, { manifest: await storage.complete(id, body.patch) });
    }
    if (part === 'annotations' && req.method === 'POST') {
      const body = await jsonBody<{ lines?: AnnotationLine[] }>(req, res);
      if (body === undefined) return;
      if (!Array.isArray(body.lines)) return sendJson(res, 400, { error: 'the body is { "lines": [ … ] }' });
      await storage.appendAnnotations(id, body.lines);
      return sendJson(res, 200, { annotations: (await storage.readAnnotations(id)).length });
    }
    return sendJson(res, 404, { error: 'not found' });
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    // The store said no (an integrity mismatch, a gap, another run under the id): the client gets why.
    const status = error.code === 'USAGE_UNKNOWN_RUN' ? 404 : error.code.startsWith('STORE_') ? 409 : 400;
    return sendJson(res, status, { error: error.message, code: error.code, ...(error.hint === undefined ? {} : { hint: error.hint }) });
  }
}

async function jsonBody<T>(req: IncomingMessage, res: ServerResponse): Promise<T | undefined> {
  const body = await readBody(req, MAX_PUSH_BYTES);
  if (!body.ok) {
    tooLarge(res);
    return undefined;
  }
  try {
    return JSON.parse(body.text) as T;
  } catch {
    sendJson(res, 400, { error: 'the body is not JSON' });
    return undefined;
  }
}

function tooLarge(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  sendJson(res, 413, { error: `a push request is at most ${MAX_PUSH_BYTES} bytes` });
}
