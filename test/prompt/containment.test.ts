import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectScope } from '../../src/project/path-scope.js';
import { loadPrompt } from '../../src/prompt/index.js';
import { FRONTMATTER, loadError, writeFiles } from './helpers.js';

const HINT =
  'a prompt may only read files inside its project (the folder holding agentmark.json), symlinks followed; to share a folder, list it in agentmark.json "allowedPaths", e.g. ["../shared-datasets"]';

describe('component imports stay inside their scope', () => {
  it('without a project, a component may not climb out of the prompt folder', async () => {
    const dir = await writeFiles({ 'app/main.prompt.mdx': `${FRONTMATTER}import S from '../secret.mdx'\n\n<User><S /></User>\n`, 'secret.mdx': 'secret' });
    expect(await loadError(loadPrompt(join(dir, 'app/main.prompt.mdx')))).toEqual([
      `PROMPT_IMPORT_OUTSIDE_PROJECT main.prompt.mdx:6:1: component "../secret.mdx" is outside the project: ${join(dir, 'secret.mdx')} | hint: ${HINT}`,
    ]);
  });

  it('a component that imports through ../../ is refused where its import is written', async () => {
    const dir = await writeFiles({
      'app/main.prompt.mdx': `${FRONTMATTER}import A from './parts/a.mdx'\n\n<User><A /></User>\n`,
      'app/parts/a.mdx': "import S from '../../secret.mdx'\n\n<S />\n",
      'secret.mdx': 'secret',
    });
    const scope = projectScope({ root: join(dir, 'app') });
    expect(await loadError(loadPrompt(join(dir, 'app/main.prompt.mdx'), { scope }))).toEqual([
      `PROMPT_IMPORT_OUTSIDE_PROJECT a.mdx:1:1: component "../../secret.mdx" is outside the project: ${join(dir, 'secret.mdx')} | hint: ${HINT}`,
    ]);
  });

  it('a symlinked folder inside the project that leads outside is refused; listed in allowed folders it loads', async () => {
    const dir = await writeFiles({ 'app/main.prompt.mdx': `${FRONTMATTER}import S from './shared/s.mdx'\n\n<User><S /></User>\n`, 'shared/s.mdx': 'shared text' });
    await symlink(join(dir, 'shared'), join(dir, 'app/shared'));
    const [error] = await loadError(loadPrompt(join(dir, 'app/main.prompt.mdx'), { scope: projectScope({ root: join(dir, 'app') }) }));
    expect(error).toContain(`component "./shared/s.mdx" is outside the project: ${join(dir, 'app/shared/s.mdx')} (through a symlink, to `);
    const allowed = projectScope({ root: join(dir, 'app'), allowedPaths: [join(dir, 'shared')] });
    const prompt = await loadPrompt(join(dir, 'app/main.prompt.mdx'), { scope: allowed });
    expect(prompt.render({}).messages).toEqual([{ role: 'user', content: 'shared text' }]);
  });
});
