import { mkdir, realpath, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outsideScope, projectScope, realPath } from '../../src/project/path-scope.js';
import { makeTempDir } from './temp-dir.js';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  cleanups = [];
});

/** <tmp>/app is the project, <tmp>/shared a sibling folder, <tmp>/secret.txt a file outside both. */
async function layout(): Promise<{ base: string; app: string }> {
  const temp = await makeTempDir({ 'app/agentmark.json': '{}', 'app/prompts/a.mdx': 'a', 'shared/d.jsonl': '{}', 'secret.txt': 's' });
  cleanups.push(temp.cleanup);
  const base = await realpath(temp.dir);
  return { base, app: path.join(base, 'app') };
}

const HINT =
  'a prompt may only read files inside its project (the folder holding agentmark.json), symlinks followed; to share a folder, list it in agentmark.json "allowedPaths", e.g. ["../shared-datasets"]';

describe('outsideScope', () => {
  it('accepts files inside the root, existing or not', async () => {
    const { app } = await layout();
    const scope = projectScope({ root: app });
    expect(outsideScope(scope, path.join(app, 'prompts/a.mdx'), './a.mdx')).toBeUndefined();
    expect(outsideScope(scope, path.join(app, 'prompts/missing/b.mdx'), './missing/b.mdx')).toBeUndefined();
    expect(outsideScope(scope, app, '.')).toBeUndefined();
    // A sibling whose name merely starts with the root's name is not inside it.
    expect(outsideScope(scope, `${app}-other/x.jsonl`, '../app-other/x.jsonl')?.real).toBe(`${app}-other/x.jsonl`);
  });

  it('refuses ../ that climbs out, with the path as written, where it leads and a hint', async () => {
    const { app, base } = await layout();
    const target = path.resolve(app, 'prompts', '../../secret.txt');
    expect(outsideScope(projectScope({ root: app }), target, '../../secret.txt')).toEqual({
      real: path.join(base, 'secret.txt'),
      message: `"../../secret.txt" is outside the project: ${path.join(base, 'secret.txt')}`,
      hint: HINT,
    });
  });

  it('follows symlinks: a link inside the project to a folder outside is outside, even for a file not there yet', async () => {
    const { app, base } = await layout();
    await symlink(path.join(base, 'shared'), path.join(app, 'linked'));
    const scope = projectScope({ root: app });
    expect(outsideScope(scope, path.join(app, 'linked/d.jsonl'), 'linked/d.jsonl')).toEqual({
      real: path.join(base, 'shared/d.jsonl'),
      message: `"linked/d.jsonl" is outside the project: ${path.join(app, 'linked/d.jsonl')} (through a symlink, to ${path.join(base, 'shared/d.jsonl')})`,
      hint: HINT,
    });
    expect(outsideScope(scope, path.join(app, 'linked/new/e.jsonl'), 'linked/new/e.jsonl')?.real).toBe(path.join(base, 'shared/new/e.jsonl'));
  });

  it('a link to /etc is outside', async () => {
    const { app } = await layout();
    await symlink('/etc', path.join(app, 'etc'));
    expect(outsideScope(projectScope({ root: app }), path.join(app, 'etc/passwd'), 'etc/passwd')?.real).toBe(await realpath('/etc/passwd'));
  });

  it('accepts a file in an allowedPaths folder, and a link that leads into one', async () => {
    const { app, base } = await layout();
    await symlink(path.join(base, 'shared'), path.join(app, 'linked'));
    const scope = projectScope({ root: app, allowedPaths: [path.join(base, 'shared')] });
    expect(outsideScope(scope, path.join(base, 'shared/d.jsonl'), '../shared/d.jsonl')).toBeUndefined();
    expect(outsideScope(scope, path.join(app, 'linked/d.jsonl'), 'linked/d.jsonl')).toBeUndefined();
    expect(outsideScope(scope, path.join(base, 'secret.txt'), '../secret.txt')?.real).toBe(path.join(base, 'secret.txt'));
  });

  it('a project reached through a symlink still contains its own files', async () => {
    const { app, base } = await layout();
    await mkdir(path.join(base, 'links'));
    await symlink(app, path.join(base, 'links/app'));
    const viaLink = path.join(base, 'links/app');
    expect(outsideScope(projectScope({ root: viaLink }), path.join(viaLink, 'prompts/a.mdx'), './a.mdx')).toBeUndefined();
  });
});

describe('realPath', () => {
  it('resolves the nearest existing ancestor of a missing path', async () => {
    const { app, base } = await layout();
    await symlink(path.join(base, 'shared'), path.join(app, 'linked'));
    expect(realPath(path.join(app, 'linked/a/b.txt'))).toBe(path.join(base, 'shared/a/b.txt'));
    expect(realPath(path.join(app, 'prompts/a.mdx'))).toBe(path.join(app, 'prompts/a.mdx'));
  });
});
