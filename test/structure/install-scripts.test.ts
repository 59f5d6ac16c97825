import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// An installed package must run nothing: npm 11 warns about every install script a package has
// that allowScripts does not cover. The build runs when the package is packed (prepack) and in
// the repository (npm run build, npm test), and the tarball ships dist/.
describe('the package needs no install script', () => {
  it('has no preinstall, install, postinstall or prepare script; prepack builds; files ship dist', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string>; files: string[]; bin: Record<string, string> };
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[name]).toBeUndefined();
    expect(pkg.scripts['prepack']).toBe('npm run build');
    expect(pkg.scripts['test']).toContain('npm run build');
    expect(pkg.files).toContain('dist');
    expect(pkg.bin['agentmark']).toBe('dist/bundle/agentmark.cjs');
  });
});
