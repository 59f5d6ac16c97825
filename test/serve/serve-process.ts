import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { runCli, type CliResult } from '../helpers/run-cli.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** `agentmark serve` as a process: its URL, its log lines as they come, and a way to stop it. */
export interface ServeProcess {
  url: string;
  port: number;
  /** Resolves with the first stderr line (so far or to come) matching `pattern`. */
  logLine(pattern: RegExp): Promise<string>;
  stderr(): string;
  stop(): Promise<CliResult>;
}

export async function startServe(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  let child: ChildProcess | undefined;
  const done = runCli(['serve', '--port', '0', ...args], { cwd, env, timeoutMs: 120_000, onSpawn: (c) => (child = c) });
  const proc = child as ChildProcess;
  let err = '';
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      const line = err.split('\n').find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  proc.stderr?.on('data', (chunk: Buffer | string) => {
    err += chunk.toString();
    check();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer | string) => {
      out += chunk.toString();
      const match = /https?:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (match) resolve(match[0]);
    });
    void done.then((result) => reject(new Error(`serve exited ${result.code}: ${result.stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    logLine: (pattern) =>
      new Promise((resolve) => {
        waiters.push({ pattern, resolve });
        check();
      }),
    stderr: () => err,
    stop: () => {
      proc.kill('SIGINT');
      return done;
    },
  };
}

/** One raw request to 127.0.0.1 with exactly the headers given (Host defaults to the server's). */
export function send(server: { port: number; url: string }, method: string, path: string, headers: Record<string, string> = {}, body?: string, ca?: Buffer): Promise<Reply> {
  const request = server.url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: `127.0.0.1:${server.port}`, ...headers }, ...(ca ? { ca } : {}) }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    req.end(body);
  });
}

/** A JSON label write with a Bearer token. */
export function labelWith(server: ServeProcess, token: string | undefined, run: string, label: Record<string, unknown>): Promise<Reply> {
  const text = JSON.stringify(label);
  return send(server, 'POST', `/api/runs/${run}/labels`, {
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  }, text);
}

/** `agentmark tokens create` and the token on its last line. */
export async function createToken(cwd: string, name: string, role: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await runCli(['tokens', 'create', '--name', name, '--role', role], { cwd, env });
  if (result.code !== 0) throw new Error(`tokens create failed: ${result.stderr}`);
  return result.stdout.trimEnd().split('\n').at(-1) as string;
}

/**
 * The secret part of a token (`amk_<16 hex>_<secret>`). Not `split('_')[2]`: the base64url secret
 * may itself contain `_` (or start with one), which once made a test compare against ''.
 */
export function tokenSecretOf(token: string): string {
  const secret = token.slice('amk_'.length + 16 + 1);
  if (secret.length !== 43) throw new Error(`not a token: ${token.length} characters`);
  return secret;
}
