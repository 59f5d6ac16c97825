import { cp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, tempProject } from '../helpers/temp-project.js';

/**
 * A copy of the repository's example project that runs offline from its sample responses (the
 * replay folder `examples/responses/` its agentmark.json names).
 */
export async function exampleProject(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const project = await tempProject();
  for (const name of ['agentmark.json', 'agentmark.config.ts', 'package.json', 'examples', 'prompts', 'datasets', 'judges']) {
    await cp(join(REPO_ROOT, name), join(project.dir, name), { recursive: true });
  }
  // as after `npm install` in a fresh clone: the config imports `ai` and the package itself
  await symlink(join(REPO_ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
  await symlink(join(REPO_ROOT, 'dist'), join(project.dir, 'dist'), 'dir');
  return project;
}

/** Rows whose text would run as HTML or end a script element if it were not shown as text. */
export const HOSTILE = {
  img: '<img src=x onerror=alert(1)>',
  script: 'before </script><script>alert(2)</script> after <!-- comment',
  input: '<b>bold?</b> & <svg onload=alert(3)>',
} as const;
