import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ScoreSchema } from '../project/types.js';
import { listenError } from '../view/listen-error.js';
import { COMMON_HEADERS, allowedHostNames, hostAllowed, isLoopback } from '../view/security.js';
import { proxyHostAllowed } from './proxy-hosts.js';
import { createViewRoutes, segmentsOf, sendJson, sendText } from '../view/view-routes.js';
import { Accounts } from './accounts.js';
import { addressOf, authenticate, type Caller } from './authenticate.js';
import { sessionCookieName } from './cookies.js';
import { can, type Right } from './roles.js';
import { Sessions } from './sessions.js';
import { SIGN_IN_CSS } from './sign-in-page.js';
import { SignInLimit } from './sign-in-limit.js';
import { sendSignInPage, signIn, signOut, type SignInDeps } from './sign-in-routes.js';
import { teamWriteRefusal } from './team-write-guard.js';
import { LocalStorage, type RunStorage } from '../store/index.js';
import { pushRoute } from './push-routes.js';
import { tokenRoute } from './token-routes.js';
import { StoreMirror } from './store-mirror.js';
import type { TokenStore } from './token-store.js';

export interface TeamServerOptions {
  projectRoot: string;
  /** @default `<projectRoot>/.agentmark/runs` */
  runsDir?: string;
  tokens: TokenStore;
  /** A team store to serve the runs of (its completed runs, copied for the viewer); else the project's folder. */
  storage?: RunStorage;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 4848 */
  port?: number;
  /** PEM certificate and key: HTTPS, and the session cookie is Secure. */
  tls?: { cert: Buffer; key: Buffer };
  /** Names a browser may reach this server by besides its own addresses (a reverse proxy's), in `Host` at any port. */
  allowHosts?: readonly string[];
  webDir?: string;
  scores?: Readonly<Record<string, ScoreSchema>>;
  /** Where refusals and sign-ins are logged, never with a token. */
  log?: (line: string) => void;
  now?: () => Date;
}

export interface TeamServer {
  url: string;
  host: string;
  port: number;
  exposed: boolean;
  close(): Promise<void>;
}

/**
 * The right a request needs: pushing for the writer's `/api/store/` routes, managing tokens for
 * `/api/tokens`, reading for GET and HEAD, labelling for the label route; else none fits.
 */
function rightOf(req: IncomingMessage, segments: readonly string[]): Right | undefined {
  const method = req.method ?? '';
  if (segments[0] === 'api' && segments[1] === 'store') return ['GET', 'POST'].includes(method) ? 'push' : undefined;
  if (segments[0] === 'api' && segments[1] === 'tokens') return ['GET', 'POST', 'DELETE'].includes(method) ? 'tokens' : undefined;
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (req.method === 'POST' && segments.length === 4 && segments[0] === 'api' && segments[1] === 'runs' && segments[3] === 'labels') return 'label';
  return undefined;
}

/**
 * `agentmark serve`: the viewer's routes (src/view/view-routes.ts) for a team, each request
 * made by an account (a Bearer token, or a session cookie from signing in with one) whose role
 * has the right to it. The viewer's own checks stay: the Host header (DNS rebinding), and for a
 * browser's write its Origin and its page's write token.
 */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServer> {
  const host = options.host ?? '127.0.0.1';
  const mirror = options.storage && options.storage.kind !== 'local' ? new StoreMirror(options.storage, options.projectRoot) : undefined;
  const runsDir = mirror?.runsDir ?? options.runsDir;
  if (mirror) {
    await mirror.syncRuns();
    // Running runs' new rows reach open pages without a request asking for them.
    mirror.start();
  }
  // Where a writer's push lands: the team store, or the project's runs folder without one.
  const pushTarget: RunStorage = options.storage ?? new LocalStorage(options.projectRoot, options.runsDir ? { runsDir: options.runsDir } : {});
  const routes = await createViewRoutes({ projectRoot: options.projectRoot, ...(runsDir ? { runsDir } : {}), ...(options.webDir ? { webDir: options.webDir } : {}), ...(options.scores ? { scores: options.scores } : {}), ...(options.now ? { now: options.now } : {}), ...(mirror ? { storeRuns: mirror } : {}) });
  const allowed = allowedHostNames(host);
  const proxied = new Set((options.allowHosts ?? []).map((name) => name.toLowerCase()));
  const tls = options.tls !== undefined;
  const log = options.log ?? (() => undefined);
  const accounts = new Accounts(options.tokens);
  const deps: SignInDeps = { accounts, sessions: new Sessions(), limit: new SignInLimit(), cookieName: sessionCookieName(tls), tls, log };
  let port = 0;

  const refuse = (req: IncomingMessage, res: ServerResponse, path: string, caller: Extract<Caller, { kind: 'refused' }>): void => {
    log(`${caller.status} ${req.method} ${path} from ${addressOf(req)}: ${caller.reason}`);
    const headers: Record<string, string> = caller.status === 429 ? { 'retry-after': String(caller.retryAfter ?? 60) } : { 'www-authenticate': 'Bearer' };
    if (req.method === 'POST') res.setHeader('connection', 'close');
    // A browser asking for a page gets the form to sign in with, under the same status.
    if (req.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/assets/')) return sendSignInPage(res, caller.status, caller.status === 429 ? 'limited' : 'none', headers);
    res.writeHead(caller.status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify({ error: caller.status === 429 ? 'too many failed sign-ins from this address: try again later' : 'sign in: send "Authorization: Bearer <token>", or sign in at /sign-in' }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, allowed, port) && !proxyHostAllowed(req.headers.host, proxied)) return sendText(res, 403, 'forbidden: unexpected Host header');
    const path = new URL(req.url ?? '/', 'http://viewer.invalid').pathname;
    if (path === '/sign-in.css' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/css; charset=utf-8' });
      return void res.end(req.method === 'HEAD' ? undefined : SIGN_IN_CSS);
    }
    if (path === '/sign-in' && req.method === 'GET') return sendSignInPage(res, 200, 'none');
    if (path === '/sign-in' && req.method === 'POST') return signIn(req, res, deps);
    if (path === '/sign-out' && req.method === 'POST') return signOut(req, res, deps);
    const caller = await authenticate(req, deps);
    if (caller.kind === 'refused') return refuse(req, res, path, caller);
    const right = rightOf(req, segmentsOf(path) ?? []);
    if (right === undefined) {
      if (req.method !== 'POST') res.setHeader('allow', 'GET, HEAD, POST, DELETE');
      return sendJson(res, req.method === 'POST' ? 404 : 405, { error: req.method === 'POST' ? 'not found' : 'method not allowed' });
    }
    if (!can(caller.account.role, right)) {
      const what = right === 'tokens' ? 'manage tokens' : right;
      log(`403 ${req.method} ${path} from ${addressOf(req)}: ${caller.account.name} (${caller.account.role}) may not ${what}`);
      if (req.method === 'POST') res.setHeader('connection', 'close');
      return sendJson(res, 403, { error: `the ${caller.account.role} role may not ${what}` });
    }
    const segments = segmentsOf(path) ?? [];
    if (right === 'push' || right === 'tokens') {
      // A browser's write must come from this server's page, as a label's must (a cross-site form sends the cookie).
      if (caller.kind === 'session' && req.method !== 'GET') {
        const refused = teamWriteRefusal(req, caller.session.csrf, { anyBody: true });
        if (refused) {
          res.setHeader('connection', 'close');
          return sendJson(res, refused.status, { error: refused.error });
        }
      }
      if (right === 'tokens') return tokenRoute(options.tokens, req, res, segments, options.now ?? (() => new Date()));
      await pushRoute(pushTarget, req, res, segments, new URL(req.url ?? '/', 'http://viewer.invalid').searchParams);
      if (req.method === 'POST') mirror?.changed();
      return;
    }
    const runId = segments[0] === 'api' && segments[1] === 'runs' ? segments[2] : undefined;
    if (mirror && segments[0] === 'api') await mirror.syncRuns();
    // Labels are the store's: another server or `agentmark annotate` may have added some.
    const known = mirror && runId !== undefined && segments.length === 4 && ['review', 'queue', 'agreement', 'labels'].includes(segments[3] as string) ? await mirror.syncLabels(runId).catch(() => undefined) : undefined;
    if (right === 'read') {
      const labels = caller.kind === 'session' && can(caller.account.role, 'label');
      // The page labels as the account; a role that may not label gets a page without controls.
      return routes.read(req, res, routes.shell(labels ? { token: caller.session.csrf, reviewer: caller.account.name } : undefined));
    }
    const refused = teamWriteRefusal(req, caller.kind === 'session' ? caller.session.csrf : undefined);
    if (refused) {
      res.setHeader('connection', 'close');
      return sendJson(res, refused.status, { error: refused.error });
    }
    return routes.label(req, res, caller.account.name, mirror && known !== undefined ? (id) => mirror.pushLabels(id, known) : undefined);
  };

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  };
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, options.port ?? 4848)));
    server.listen(options.port ?? 4848, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${port}/`,
    host,
    port,
    exposed: !isLoopback(host),
    close: () =>
      new Promise<void>((resolve) => {
        routes.close();
        mirror?.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
