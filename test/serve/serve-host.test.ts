import { connect } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { send, startServe, type ServeProcess } from './serve-process.js';

const projects: CliProject[] = [];
const servers: ServeProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const project of projects.splice(0)) await project.cleanup();
});

async function serve(args: string[]): Promise<ServeProcess> {
  const project = await cliProject();
  projects.push(project);
  const server = await startServe(project.dir, args);
  servers.push(server);
  return server;
}

/**
 * Whether something listens at `address:port`. 127.0.0.2 is loopback on Linux but not the address
 * serve binds by default: a server bound to 127.0.0.1 refuses it, one bound to 0.0.0.0 answers.
 */
function listensAt(address: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve(false) : reject(error)));
  });
}

const NO_TOKEN = 401;
const BAD_HOST = { status: 403, body: 'forbidden: unexpected Host header\n' };

test('without --host, serve binds 127.0.0.1 only, with no warning', async () => {
  const server = await serve([]);
  expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  expect(await listensAt('127.0.0.1', server.port)).toBe(true);
  expect(await listensAt('127.0.0.2', server.port)).toBe(false);
  expect((await send(server, 'GET', '/api/runs')).status).toBe(NO_TOKEN);
  expect(await send(server, 'GET', '/api/runs', { host: `evals.example.com:${server.port}` })).toMatchObject(BAD_HOST);
  expect(server.stderr()).not.toContain('warning:');
});

test('--host 0.0.0.0 binds every interface, warns that it serves without TLS, and still checks the Host header', async () => {
  const server = await serve(['--host', '0.0.0.0']);
  expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  expect(await listensAt('127.0.0.2', server.port)).toBe(true);
  expect(await server.logLine(/^warning: /)).toBe(
    'warning: serving on 0.0.0.0 without TLS: tokens and session cookies cross the network in clear; give --tls-cert/--tls-key, or put a TLS reverse proxy in front',
  );
  expect((await send(server, 'GET', '/api/runs')).status).toBe(NO_TOKEN);
  expect((await send(server, 'GET', '/api/runs', { host: `localhost:${server.port}` })).status).toBe(NO_TOKEN);
  // A page elsewhere whose name resolves here (DNS rebinding) sends its own name.
  expect(await send(server, 'GET', '/api/runs', { host: `evals.example.com:${server.port}` })).toMatchObject(BAD_HOST);
});

test('--allow-host accepts a reverse proxy’s name in Host at any port (nginx sends it without one), and no other name', async () => {
  const server = await serve(['--allow-host', 'evals.example.com', '--allow-host', 'Second.Example.com']);
  expect((await send(server, 'GET', '/api/runs', { host: 'evals.example.com' })).status).toBe(NO_TOKEN);
  expect((await send(server, 'GET', '/api/runs', { host: 'EVALS.example.com:443' })).status).toBe(NO_TOKEN);
  expect((await send(server, 'GET', '/api/runs', { host: `evals.example.com:${server.port}` })).status).toBe(NO_TOKEN);
  expect((await send(server, 'GET', '/api/runs', { host: 'second.example.com' })).status).toBe(NO_TOKEN);
  expect(await send(server, 'GET', '/api/runs', { host: 'other.example.com' })).toMatchObject(BAD_HOST);
  expect(await send(server, 'GET', '/api/runs', { host: 'evals.example.com.evil.test' })).toMatchObject(BAD_HOST);
  expect(await send(server, 'GET', '/api/runs', { host: 'evals.example.com:443, other.example.com' })).toMatchObject(BAD_HOST);
  // Still bound to loopback alone: --allow-host names a proxy in front, it binds nothing.
  expect(await listensAt('127.0.0.2', server.port)).toBe(false);
  expect(server.stderr()).not.toContain('warning:');
});
