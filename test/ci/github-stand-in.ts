import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInComment {
  id: number;
  body: string;
}

export interface GitHubStandIn {
  /** What GITHUB_API_URL is set to. */
  url: string;
  comments: StandInComment[];
  /** Every request as `METHOD path`, with the Authorization header it carried. */
  requests: Array<{ line: string; authorization: string | undefined }>;
  /** Answer every request with this status instead (e.g. 500). */
  failWith: number | undefined;
  close(): Promise<void>;
}

/** A loopback stand-in for the part of GitHub's REST API that `ci --comment` uses: one PR's comments. */
export async function startGitHubStandIn(repository: string, pr: number): Promise<GitHubStandIn> {
  let nextId = 1000;
  const state: GitHubStandIn = { url: '', comments: [], requests: [], failWith: undefined, close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      state.requests.push({ line: `${req.method} ${req.url}`, authorization: req.headers.authorization });
      const send = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (state.failWith !== undefined) return send(state.failWith, { message: 'scripted failure' });
      const path = (req.url ?? '').replace(/\?.*$/, '');
      if (req.method === 'GET' && path === `/repos/${repository}/issues/${pr}/comments`) return send(200, state.comments);
      if (req.method === 'POST' && path === `/repos/${repository}/issues/${pr}/comments`) {
        const comment = { id: nextId++, body: (JSON.parse(body) as { body: string }).body };
        state.comments.push(comment);
        return send(201, comment);
      }
      const edit = new RegExp(`^/repos/${repository}/issues/comments/(\\d+)$`).exec(path);
      const found = edit && state.comments.find((c) => c.id === Number(edit[1]));
      if (req.method === 'PATCH' && found) {
        found.body = (JSON.parse(body) as { body: string }).body;
        return send(200, found);
      }
      return send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
  });
}
