import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_RUN, reviewProject } from '../view/review-run.js';
import { createToken, tokenSecretOf, send, startServe, type Reply, type ServeProcess } from './serve-process.js';

let project: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
let ada: string;
let vera: string;

beforeAll(async () => {
  project = await reviewProject();
  ada = await createToken(project.dir, 'ada', 'reviewer');
  vera = await createToken(project.dir, 'vera', 'viewer');
  server = await startServe(project.dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await project.cleanup();
});

const origin = (s: ServeProcess): string => s.url.replace(/\/$/, '');

function signIn(s: ServeProcess, token: string, headers: Record<string, string> = { origin: origin(s) }, ca?: Buffer): Promise<Reply> {
  const body = new URLSearchParams({ token }).toString();
  return send(s, 'POST', '/sign-in', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), ...headers }, body, ca);
}

const cookieOf = (reply: Reply): string => ((reply.headers['set-cookie'] as string[])[0] as string).split(';')[0] as string;

function sessionOf(shell: string): { token: string; reviewer?: string } | undefined {
  const match = /<meta name="agentmark-session" content="([^"]*)">/.exec(shell);
  return match ? (JSON.parse((match[1] as string).replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { token: string; reviewer?: string }) : undefined;
}

describe('agentmark serve: signing in from a browser', () => {
  it('a page without a session is the sign-in form, under 401; the form is served with a CSP that lets it post only here', async () => {
    const page = await send(server, 'GET', '/');
    expect(page.status).toBe(401);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<form method="post" action="/sign-in" class="sign-in">');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect((await send(server, 'GET', '/sign-in.css')).status).toBe(200);
  });

  it('signs in with a token: an HttpOnly, SameSite=Strict cookie (not Secure without TLS); the page labels as the account', async () => {
    const reply = await signIn(server, ada);
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    expect(reply.headers['set-cookie']).toEqual([expect.stringMatching(/^agentmark-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/)]);
    expect(await server.logLine(/signed in/)).toBe('serve: signed in: ada (reviewer) from 127.0.0.1');
    const cookie = cookieOf(reply);
    const shell = await send(server, 'GET', '/', { cookie });
    expect(shell.status).toBe(200);
    const session = sessionOf(shell.body);
    expect(session?.reviewer).toBe('ada');
    const label = JSON.stringify({ index: 5, repeat: 0, eval: 'helpful', value: true, reviewer: 'someone-else' });
    const headers = { cookie, 'content-type': 'application/json', 'content-length': String(label.length) };
    // The viewer's CSRF checks stay: the page's write token and its own Origin.
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, { ...headers, origin: origin(server) }, label)).status).toBe(403);
    expect((await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, { ...headers, origin: 'http://evil.example', 'x-agentmark-token': session?.token as string }, label)).status).toBe(403);
    const ok = await send(server, 'POST', `/api/runs/${REVIEW_RUN}/labels`, { ...headers, origin: origin(server), 'x-agentmark-token': session?.token as string }, label);
    expect(ok.status).toBe(200);
    expect((JSON.parse(ok.body) as { labels: Array<{ reviewer: string }> }).labels.map((l) => l.reviewer)).toEqual(['ada']);
    // Signed out, the cookie is nobody.
    expect((await send(server, 'POST', '/sign-out', { cookie, origin: origin(server) })).status).toBe(200);
    expect((await send(server, 'GET', '/api/runs', { cookie })).status).toBe(401);
  });

  it('an admin\'s browser session manages tokens only from this server\'s page: its Origin and its page\'s write token', async () => {
    const root = await createToken(project.dir, 'root', 'admin');
    const cookie = cookieOf(await signIn(server, root));
    const session = sessionOf((await send(server, 'GET', '/', { cookie })).body);
    const body = JSON.stringify({ name: 'made-in-browser', role: 'viewer' });
    const headers = { cookie, 'content-type': 'application/json', 'content-length': String(body.length) };
    expect((await send(server, 'POST', '/api/tokens', { ...headers, origin: origin(server) }, body)).status).toBe(403);
    expect((await send(server, 'POST', '/api/tokens', { ...headers, origin: 'http://evil.example', 'x-agentmark-token': session?.token as string }, body)).status).toBe(403);
    expect((await send(server, 'GET', '/api/tokens', { cookie })).status).toBe(200);
    const made = await send(server, 'POST', '/api/tokens', { ...headers, origin: origin(server), 'x-agentmark-token': session?.token as string }, body);
    expect([made.status, (JSON.parse(made.body) as { name: string }).name]).toEqual([201, 'made-in-browser']);
    const { id } = JSON.parse(made.body) as { id: string };
    expect((await send(server, 'DELETE', `/api/tokens/${id}`, { cookie, origin: 'http://evil.example', 'x-agentmark-token': session?.token as string })).status).toBe(403);
    expect((await send(server, 'DELETE', `/api/tokens/${id}`, { cookie, origin: origin(server), 'x-agentmark-token': session?.token as string })).status).toBe(200);
  });

  it('a viewer\'s page has no label controls (no write token in it)', async () => {
    const cookie = cookieOf(await signIn(server, vera));
    const shell = await send(server, 'GET', '/', { cookie });
    expect(shell.status).toBe(200);
    expect(sessionOf(shell.body)).toBeUndefined();
  });

  it('refuses a sign-in posted from another origin (login CSRF)', async () => {
    const reply = await signIn(server, ada, { origin: 'http://evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it('limits failed sign-ins per address: after 5 wrong tokens even the right one gets 429, logged without either', async () => {
    const limited = await startServe(project.dir);
    try {
      for (let i = 0; i < 3; i += 1) expect((await signIn(limited, `wrong-${i}`, { origin: origin(limited) })).status).toBe(401);
      for (let i = 0; i < 2; i += 1) expect((await send(limited, 'GET', '/api/runs', { authorization: `Bearer amk_0000000000000000_${'x'.repeat(43)}` })).status).toBe(401);
      const form = await signIn(limited, ada, { origin: origin(limited) });
      expect(form.status).toBe(429);
      expect(form.headers['retry-after']).toMatch(/^\d+$/);
      const bearer = await send(limited, 'GET', '/api/runs', { authorization: `Bearer ${ada}` });
      expect(bearer.status).toBe(429);
      expect(await limited.logLine(/^serve: 429 GET/)).toBe('serve: 429 GET /api/runs from 127.0.0.1: too many failed sign-ins from this address');
      expect(limited.stderr()).not.toContain(tokenSecretOf(ada));
      expect(limited.stderr()).not.toContain('wrong-0');
    } finally {
      await limited.stop();
    }
  });

  it('serves HTTPS with --tls-cert/--tls-key: the cookie is then Secure and __Host- prefixed', async () => {
    const dir = project.dir;
    // A self-signed certificate for 127.0.0.1, made here with the machine's openssl.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const ca = await readFile(join(dir, 'cert.pem'));
    const secure = await startServe(dir, ['--tls-cert', 'cert.pem', '--tls-key', 'key.pem']);
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
      const reply = await signIn(secure, ada, { origin: origin(secure) }, ca);
      expect(reply.status).toBe(303);
      expect(reply.headers['set-cookie']).toEqual([expect.stringMatching(/^__Host-agentmark-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/)]);
      expect((await send(secure, 'GET', '/api/runs', { authorization: `Bearer ${ada}` }, undefined, ca)).status).toBe(200);
    } finally {
      await secure.stop();
    }
  });
});
