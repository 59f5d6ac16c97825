import type { IncomingMessage, ServerResponse } from 'node:http';
import { UsageError } from '../errors/index.js';
import type { ScoreSchema } from '../project/types.js';
import type { ReviewSession } from './api-types.js';
import { answeringResultsProblems, apiRoute } from './api-routes.js';
import { LiveEvents, openEventStream } from './live-events.js';
import { labelRoute, reviewRoute, type ReviewContext } from './review-routes.js';
import { JsonText } from './json-text.js';
import { RunCatalog, type StoreRuns } from './run-catalog.js';
import { APP_CSP, COMMON_HEADERS } from './security.js';
import { shellWithSession } from './session-page.js';
import { loadAssets, type Asset } from './static-assets.js';
import { readJsonBody } from './write-guard.js';

/** The run routes the review queue answers (src/view/review-routes.ts); the others go to apiRoute. */
const REVIEW_PARTS: ReadonlySet<string> = new Set(['review', 'queue', 'agreement']);

export interface ViewRoutesOptions {
  projectRoot: string;
  /** @default `<projectRoot>/.agentmark/runs` */
  runsDir?: string;
  /** The built front-end. @default dist/web of this package */
  webDir?: string;
  /** Who labels when a label names no reviewer. */
  reviewer?: string;
  /** The project's score schemas. @default read from the project's agentmark.json when first needed */
  scores?: Readonly<Record<string, ScoreSchema>>;
  /** The clock of label times. @default () => new Date() */
  now?: () => Date;
  /** Runs whose rows are read from a team store (`agentmark serve`), not from their folder. */
  storeRuns?: StoreRuns;
}

/**
 * The viewer's routes, without any check of who asks: `agentmark view` (src/view/server.ts) puts
 * its loopback checks in front of them, `agentmark serve` (src/serve/) its accounts and roles.
 */
export interface ViewRoutes {
  /** GET or HEAD of a page, an asset, or an API route; `shell` is the page to answer for `/`. */
  read(req: IncomingMessage, res: ServerResponse, shell?: Buffer): Promise<void>;
  /**
   * POST /api/runs/<id>/labels, after the caller's checks; `reviewer` (when given) overrides the
   * body's; `written` runs after a label was written and before it is answered.
   */
  label(req: IncomingMessage, res: ServerResponse, reviewer?: string, written?: (id: string) => Promise<void>): Promise<void>;
  /** The shell page with a session in it (a write token and a reviewer), or none. */
  shell(session: ReviewSession | undefined): Buffer;
  liveFollowers(): number;
  close(): void;
}

/** Splits a path into decoded segments; a malformed escape is no path at all. */
export function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(body instanceof JsonText ? body.text : JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

export async function createViewRoutes(options: ViewRoutesOptions): Promise<ViewRoutes> {
  let assets: Map<string, Asset>;
  try {
    assets = await loadAssets(options.webDir);
  } catch (error) {
    throw new UsageError('USAGE_VIEWER_NOT_BUILT', 'the viewer\'s front-end is not built', {
      hint: 'run `npm run build` in the agentmark-eval package',
      cause: error,
    });
  }
  const catalog = new RunCatalog(options.projectRoot, options.runsDir, options.storeRuns);
  const live = new LiveEvents(catalog);
  const plainShell = (assets.get('/') as Asset).body;
  let scores: Promise<Readonly<Record<string, ScoreSchema>>> | undefined;
  const review: ReviewContext = {
    scores: () =>
      (scores ??= options.scores
        ? Promise.resolve(options.scores)
        : import('../project/index.js').then(({ loadProject }) => loadProject(options.projectRoot)).then((p) => p.scores)),
    ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }),
  };
  const now = options.now ?? (() => new Date());

  const read = async (req: IncomingMessage, res: ServerResponse, shell = plainShell): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://viewer.invalid');
    const segments = segmentsOf(url.pathname);
    if (!segments) return sendText(res, 404, 'not found');
    if (segments[0] !== 'api') {
      const asset = segments.length === 0 ? { body: shell, type: (assets.get('/') as Asset).type } : assets.get(`/${segments.join('/')}`);
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

  const label = async (req: IncomingMessage, res: ServerResponse, reviewer?: string, written?: (id: string) => Promise<void>): Promise<void> => {
    const segments = segmentsOf(new URL(req.url ?? '/', 'http://viewer.invalid').pathname);
    const [api, runs, id, labels, ...rest] = segments ?? [];
    const manifest = api === 'api' && runs === 'runs' && labels === 'labels' && rest.length === 0 && id !== undefined ? await catalog.manifest(id) : undefined;
    if (!manifest || id === undefined) return sendJson(res, 404, { error: 'not found' });
    const body = await readJsonBody(req);
    if (!body.ok) {
      res.setHeader('connection', 'close');
      return sendJson(res, body.status, { error: body.status === 413 ? 'a write is at most 16384 bytes' : 'the body is not JSON' });
    }
    // The account that signed in labels: whatever name the body gives is not asked for.
    const value = reviewer === undefined || typeof body.value !== 'object' || body.value === null ? body.value : { ...body.value, reviewer };
    const result = await answeringResultsProblems(() => labelRoute(catalog, review, id, manifest, value, now));
    if (result.status === 200 && written) await written(id);
    sendJson(res, result.status, result.body);
  };

  return {
    read,
    label,
    shell: (session) => shellWithSession(plainShell, session),
    liveFollowers: () => live.followerCount,
    close: () => live.close(),
  };
}
