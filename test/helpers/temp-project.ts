import { cp, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A fresh temporary folder; `files` maps relative paths to contents. */
export async function tempProject(files: Record<string, string> = {}): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentmark-test-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A temporary copy of a fixture folder under test/fixtures/. */
export async function copyFixture(name: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const project = await tempProject();
  await cp(join(FIXTURES, name), project.dir, { recursive: true });
  return project;
}
