import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors/index.js';
import { answeringResultsProblems, apiRoute } from './api-routes.js';
import { LiveEvents, openEventStream } from './live-events.js';
import { RunCatalog } from './run-catalog.js';
import { APP_CSP, COMMON_HEADERS, allowedHostNames, hostAllowed, isLoopback } from './security.js';
import { loadAssets, type Asset } from './static-assets.js';
import type { ScoreSchema } from '../project/types.js';
import { labelRoute, reviewRoute, type ReviewContext } from './review-routes.js';
import { shellWithSession } from './session-page.js';
import { newSessionToken, readJsonBody, writeRefusal } from './write-guard.js';

/** The run routes the review queue answers (src/view/review-routes.ts); the others go to apiRoute. */
const REVIEW_PARTS: ReadonlySet<string> = new Set(['review', 'queue', 'agreement']);

export interface ViewServerOptions {
  projectRoot: string;
  /** @default `<projectRoot>/.agentmark/runs` */
  runsDir?: string;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 4848 */
  port?: number;
  /** The built front-end. @default dist/web of this package */
  webDir?: string;
  /** No label can be written, and the page shows no label controls. @default false */
  readOnly?: boolean;
  /** Who labels from this viewer (`--reviewer`, or git config user.name); the page asks when absent. */
  reviewer?: string;
  /** The project's score schemas. @default read from the project's agentmark.json when first needed */
  scores?: Readonly<Record<string, ScoreSchema>>;
  /** The clock of label times. @default () => new Date() */
  now?: () => Date;
}

export interface ViewServer {
  /** `http://host:port/` as a browser should open it. */
  url: string;
  host: string;
  port: number;
  /** Bound to an address other machines can reach. */
  exposed: boolean;
  /** Runs whose live events are being followed for connected clients (tests check it drops to 0). */
  liveFollowers(): number;
  close(): Promise<void>;
}

/** Splits a path into decoded segments; a malformed escape is no path at all. */
function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

const HOST_HINT = 'use an address of this machine, e.g. 127.0.0.1 (the default) or 0.0.0.0 for every interface';

/** What went wrong binding the address the user gave, as a usage error; anything else as is. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new UsageError('USAGE_PORT_IN_USE', `port ${port} on ${host} is in use`, { hint: 'pick another with --port, or --port 0 for any free one' });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return new UsageError('USAGE_BAD_HOST', `cannot serve the viewer on ${host}: no such host (it does not resolve to an address)`, { hint: HOST_HINT, cause: error });
    case 'EADDRNOTAVAIL':
      return new UsageError('USAGE_BAD_HOST', `cannot serve the viewer on ${host}: not an address of this machine`, { hint: HOST_HINT, cause: error });
    case 'EACCES':
      return new UsageError('USAGE_PORT_DENIED', `port ${port} on ${host}: permission denied`, { hint: 'ports below 1024 need privileges; pick another with --port' });
    default:
      return error;
  }
}

/**
 * The viewer's HTTP server (node:http only): the shell page and its assets, the JSON API over
 * the run store, and live events. Every request passes the Host check first (DNS rebinding);
 * GET and HEAD read; the one write, POST /api/runs/<id>/labels, passes the checks of
 * write-guard.ts (a session token only the served page holds, loopback Host and Origin, a small
 * JSON body) and is off with `readOnly`.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const host = options.host ?? '127.0.0.1';
  let assets: Map<string, Asset>;
  try {
    assets = await loadAssets(options.webDir);
  } catch (error) {
    throw new UsageError('USAGE_VIEWER_NOT_BUILT', 'the viewer\'s front-end is not built', {
      hint: 'run `npm run build` in the agentmark-eval package',
      cause: error,
    });
  }
  const catalog = new RunCatalog(options.projectRoot, options.runsDir);
  const live = new LiveEvents(catalog);
  const allowed = allowedHostNames(host);
  let port = 0;
  const token = options.readOnly ? undefined : newSessionToken();
  const shell = assets.get('/') as Asset;
  assets.set('/', { ...shell, body: shellWithSession(shell.body, token === undefined ? undefined : { token, ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }) }) });
  let scores: Promise<Readonly<Record<string, ScoreSchema>>> | undefined;
  const review: ReviewContext = {
    scores: () =>
      (scores ??= options.scores
        ? Promise.resolve(options.scores)
        : import('../project/index.js').then(({ loadProject }) => loadProject(options.projectRoot)).then((p) => p.scores)),
    ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }),
  };
  const now = options.now ?? (() => new Date());

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, allowed, port)) return sendText(res, 403, 'forbidden: unexpected Host header');
    if (req.method === 'POST') return handleWrite(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendText(res, 405, 'method not allowed');
    }
    const url = new URL(req.url ?? '/', 'http://viewer.invalid');
    const segments = segmentsOf(url.pathname);
    if (!segments) return sendText(res, 404, 'not found');
    if (segments[0] !== 'api') {
      const asset = segments.length === 0 ? assets.get('/') : assets.get(`/${segments.join('/')}`);
      // Decoding then joining must give back the same path: `/assets/..%2Fx` does not.
      if (!asset || (segments.length > 0 && url.pathname !== `/${segments.join('/')}`)) return sendText(res, 404, 'not found');
      res.writeHead(200, { ...COMMON_HEADERS, 'content-type': asset.type, ...(segments.length === 0 ? { 'content-security-policy': APP_CSP } : {}) });
      res.end(req.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    const [, ...rest] = segments;
    if (rest.length === 1 && rest[0] === 'events') {
      openEventStream(res, COMMON_HEADERS);
      live.followList(res);
      return;
    }
    if (rest.length === 3 && rest[0] === 'runs' && rest[2] === 'events') {
      const id = rest[1] as string;
      // Listen for the hang-up before the first await: a client gone while the id is checked
      // would otherwise get a follower whose 'close' already fired (a watcher kept forever).
      let gone = false;
      res.once('close', () => (gone = true));
      if (!(await catalog.exists(id))) return sendJson(res, 404, { error: 'not found' });
      if (gone || res.destroyed) return;
      const since = /^\d{1,9}$/.test(url.searchParams.get('since') ?? '') ? Number(url.searchParams.get('since')) : 0;
      openEventStream(res, COMMON_HEADERS);
      live.followRun(id, res, since);
      return;
    }
    if (rest.length === 3 && rest[0] === 'runs' && REVIEW_PARTS.has(rest[2] as string)) {
      const id = rest[1] as string;
      const reviewed = await answeringResultsProblems(async () => {
        const manifest = await catalog.manifest(id);
        return manifest ? reviewRoute(catalog, review, id, manifest, rest[2] as string, url.searchParams) : undefined;
      });
      if (reviewed) return sendJson(res, reviewed.status, reviewed.body);
    }
    const result = await apiRoute(catalog, rest, url.searchParams);
    sendJson(res, result.status, result.body);
  };

  const handleWrite = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = writeRefusal(req, token, port);
    // A refused body is not read: the connection closes rather than wait for it.
    if (refused) {
      res.setHeader('connection', 'close');
      return sendJson(res, refused.status, { error: refused.error });
    }
    const segments = segmentsOf(new URL(req.url ?? '/', 'http://viewer.invalid').pathname);
    const [api, runs, id, labels, ...rest] = segments ?? [];
    const manifest = api === 'api' && runs === 'runs' && labels === 'labels' && rest.length === 0 && id !== undefined ? await catalog.manifest(id) : undefined;
    if (!manifest || id === undefined) return sendJson(res, 404, { error: 'not found' });
    const body = await readJsonBody(req);
    if (!body.ok) {
      res.setHeader('connection', 'close');
      return sendJson(res, body.status, { error: body.status === 413 ? 'a write is at most 16384 bytes' : 'the body is not JSON' });
    }
    const result = await answeringResultsProblems(() => labelRoute(catalog, review, id, manifest, body.value, now));
    sendJson(res, result.status, result.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, options.port ?? 4848)));
    server.listen(options.port ?? 4848, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}/`,
    host,
    port,
    exposed: !isLoopback(host),
    liveFollowers: () => live.followerCount,
    close: () =>
      new Promise<void>((resolve) => {
        live.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
