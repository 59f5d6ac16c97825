import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';
import { tokenSecretOf } from './serve-process.js';

let project: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  project = await tempProject({ 'agentmark.json': '{}' });
});
afterAll(() => project.cleanup());

describe('agentmark tokens (no database store: .agentmark/tokens.json)', () => {
  it('create prints the token alone on its last line, once, and stores only its scrypt hash', async () => {
    const result = await runCli(['tokens', 'create', '--name', 'ci-main', '--role', 'viewer'], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.length).toBe(3);
    expect(lines[0]).toBe('created token "ci-main" (viewer); it is shown only now, keep it secret:');
    const token = lines[1] as string;
    expect(token).toMatch(/^amk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(lines[2]).toBe('');
    const stored = await readFile(join(project.dir, '.agentmark', 'tokens.json'), 'utf8');
    expect(stored).not.toContain(tokenSecretOf(token));
    const { tokens } = JSON.parse(stored) as { tokens: Array<{ id: string; name: string; role: string; hash: string }> };
    expect(tokens.map(({ id, name, role }) => ({ id, name, role }))).toEqual([{ id: token.split('_')[1], name: 'ci-main', role: 'viewer' }]);
    // scrypt$<16-byte salt>$<32-byte key>, base64url.
    expect(tokens[0]?.hash).toMatch(/^scrypt\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  });

  it('list shows names, roles and status, never a token; revoke ends one; a name in use is refused', async () => {
    await runCli(['tokens', 'create', '--name', 'ada', '--role', 'reviewer'], { cwd: project.dir });
    const taken = await runCli(['tokens', 'create', '--name', 'ada', '--role', 'admin'], { cwd: project.dir });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe('error: a token named "ada" exists\n  hint: revoke it first (agentmark tokens revoke ada) or pick another --name\n');
    const revoked = await runCli(['tokens', 'revoke', 'ada'], { cwd: project.dir });
    expect(revoked.stdout).toBe('revoked token "ada": it no longer signs in, and its sessions have ended\n');
    const again = await runCli(['tokens', 'revoke', 'ada'], { cwd: project.dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('error: no active token named "ada"\n  hint: see the names with `agentmark tokens list`\n');
    const list = await runCli(['tokens', 'list'], { cwd: project.dir });
    expect(list.code).toBe(0);
    const shown = list.stdout.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, '<created>').replace(/revoked \d{4}-\d\d-\d\d/, 'revoked <day>');
    expect(shown).toBe(
      'NAME     ROLE      CREATED           STATUS\n' +
      'ci-main  viewer    <created>  active\n' +
      'ada      reviewer  <created>  revoked <day>\n',
    );
    const json = JSON.parse((await runCli(['tokens', 'list', '--format', 'json'], { cwd: project.dir })).stdout) as { tokens: Array<Record<string, unknown>> };
    expect(json.tokens.map((t) => Object.keys(t))).toEqual([['id', 'name', 'role', 'createdAt'], ['id', 'name', 'role', 'createdAt', 'revokedAt']]);
  });

  it('a bad role or name is a usage error naming what is accepted', async () => {
    const role = await runCli(['tokens', 'create', '--name', 'x', '--role', 'owner'], { cwd: project.dir });
    expect(role.code).toBe(2);
    expect(role.stderr).toBe('error: "owner" is not a role\n  hint: use one of viewer, reviewer, writer, admin\n');
    const name = await runCli(['tokens', 'create', '--name', 'a b', '--role', 'viewer'], { cwd: project.dir });
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/^error: "a b" is not a token name\n/);
    const missing = await runCli(['tokens', 'create', '--name', 'x'], { cwd: project.dir });
    expect(missing.stderr).toBe('error: tokens create needs --name and --role\n  hint: e.g. agentmark tokens create --name ci-main --role writer\n');
  });
});
