import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenError } from './listen-error.js';
import type { ScoreSchema } from '../project/types.js';
import { allowedHostNames, hostAllowed, isLoopback } from './security.js';
import { createViewRoutes, sendJson, sendText } from './view-routes.js';
import { newSessionToken, writeRefusal } from './write-guard.js';

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

/**
 * The viewer's HTTP server (node:http only): the shell page and its assets, the JSON API over
 * the run store, and live events. Every request passes the Host check first (DNS rebinding);
 * GET and HEAD read; the one write, POST /api/runs/<id>/labels, passes the checks of
 * write-guard.ts (a session token only the served page holds, loopback Host and Origin, a small
 * JSON body) and is off with `readOnly`.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const host = options.host ?? '127.0.0.1';
  const routes = await createViewRoutes(options);
  const allowed = allowedHostNames(host);
  let port = 0;
  const token = options.readOnly ? undefined : newSessionToken();
  const shell = routes.shell(token === undefined ? undefined : { token, ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }) });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req.headers.host, allowed, port)) return sendText(res, 403, 'forbidden: unexpected Host header');
    if (req.method === 'POST') return handleWrite(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendText(res, 405, 'method not allowed');
    }
    return routes.read(req, res, shell);
  };

  const handleWrite = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = writeRefusal(req, token, port);
    // A refused body is not read: the connection closes rather than wait for it.
    if (refused) {
      res.setHeader('connection', 'close');
      return sendJson(res, refused.status, { error: refused.error });
    }
    return routes.label(req, res);
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
    liveFollowers: () => routes.liveFollowers(),
    close: () =>
      new Promise<void>((resolve) => {
        routes.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
