import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClone, gitIn } from '../helpers/fresh-clone.js';
import { BIN } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { docBlocks, headingAnchors, relativeLinks, type DocBlock } from './doc-commands.js';

// Each run loads the example's config (jiti, `ai`) on a loaded two-core machine.
const COMMAND_MS = 60_000;

/** README.md, then docs/*.md in name order: the order a reader meets them. */
const DOC_FILES = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const BLOCKS: DocBlock[] = DOC_FILES.flatMap((file) => docBlocks(file, readFileSync(join(REPO_ROOT, file), 'utf8')));

/** Runs one documented command line in a shell, `npx agentmark` being the built CLI, with no key. */
function runDocCommand(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const line = command.replace(/^\$\s+/, '').replace(/npx agentmark(?=\s|$)/, `'${process.execPath}' '${BIN}'`);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('doc-test markers', () => {
  const fence = (marker: string, body: string): string => `${marker}\n\`\`\`sh\n${body}\n\`\`\`\n`;

  it('reads exit codes per block or per command, skips with a reason, and defaults to 0', () => {
    const text = [
      fence('', 'npx agentmark validate'),
      fence('<!-- doc-test: exit 1 0 -->', '$ npx agentmark run-experiment a.prompt.mdx   # fails\nnpx agentmark runs'),
      fence('<!-- doc-test: exit 2 -->', 'FOO=1 npx agentmark render x\nnpx agentmark render y'),
      fence('<!-- doc-test: skip serves until Ctrl-C -->', 'npx agentmark view'),
      fence('', 'npm install\necho "not npx agentmark"'),
    ].join('\n');
    expect(docBlocks('x.md', text).map(({ line, commands, exits, skip }) => ({ line, commands, exits, skip }))).toEqual([
      { line: 2, commands: ['npx agentmark validate'], exits: [0], skip: undefined },
      { line: 7, commands: ['$ npx agentmark run-experiment a.prompt.mdx   # fails', 'npx agentmark runs'], exits: [1, 0], skip: undefined },
      { line: 13, commands: ['FOO=1 npx agentmark render x', 'npx agentmark render y'], exits: [2, 2], skip: undefined },
      { line: 19, commands: ['npx agentmark view'], exits: [], skip: 'serves until Ctrl-C' },
    ]);
  });

  it('refuses a skip without a reason, a wrong number of codes, and a placeholder in a block that runs', () => {
    expect(() => docBlocks('x.md', fence('<!-- doc-test: skip -->', 'npx agentmark view'))).toThrow('x.md:1: doc-test: skip needs a reason');
    expect(() => docBlocks('x.md', fence('<!-- doc-test: exit 1 0 0 -->', 'npx agentmark a\nnpx agentmark b'))).toThrow(
      'x.md:1: doc-test: exit gives 3 codes for 2 commands',
    );
    expect(() => docBlocks('x.md', fence('', 'npx agentmark runs show <run>'))).toThrow('x.md:2: "npx agentmark runs show <run>" has a placeholder');
    expect(() => docBlocks('x.md', fence('<!-- doc-test: exit 0 -->', 'npm test'))).toThrow('x.md:1: a doc-test marker before a block with no npx agentmark command');
    expect(() => docBlocks('x.md', 'text\n```sh\nnpx agentmark validate\n')).toThrow('x.md:2: the code block is never closed');
  });
});

/** Docs another change is writing; links to them are checked once they exist. */
const WRITTEN_ELSEWHERE = new Set(['docs/statistics.md']);

describe('links between README.md and docs/', () => {
  it('every relative link names a file that exists, and a heading in it', () => {
    const broken: string[] = [];
    for (const file of DOC_FILES) {
      for (const link of relativeLinks(readFileSync(join(REPO_ROOT, file), 'utf8'))) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(REPO_ROOT, target))) {
          if (!WRITTEN_ELSEWHERE.has(target)) broken.push(`${file}: ${link} (no such file)`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !headingAnchors(readFileSync(join(REPO_ROOT, target), 'utf8')).has(anchor)) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect([...headingAnchors('# A\n## Environment: `.env` and `.env.local`\n## Suites: names, tags and `--list`\n## `--version`, `--help`\n## A\n```\n# not a heading\n```')]).toEqual([
      'a',
      'environment-env-and-envlocal',
      'suites-names-tags-and---list',
      '--version---help',
      'a-1',
    ]);
  });
});

describe('every npx agentmark command in README.md and docs/, run against the example project', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  beforeAll(async () => {
    ({ dir, cleanup } = await freshClone());
  }, COMMAND_MS);
  afterAll(() => cleanup());

  it('finds the README quickstart commands', () => {
    const readme = BLOCKS.filter((block) => block.file === 'README.md' && block.skip === undefined).flatMap((block) => block.commands);
    expect(readme).toEqual(expect.arrayContaining(['npx agentmark validate', 'npx agentmark run-experiment prompts/support-reply.prompt.mdx', 'npx agentmark compare latest~1 latest']));
  });

  // A block that repeats an earlier one (the README's quickstart, again in a guide) runs once.
  const firstSeen = new Map<string, string>();
  for (const block of BLOCKS.filter((candidate) => candidate.skip === undefined)) {
    const key = JSON.stringify([block.commands, block.exits]);
    const first = firstSeen.get(key);
    if (first !== undefined) {
      it.skip(`${block.file}:${block.line} (the same commands as ${first})`, () => {});
      continue;
    }
    firstSeen.set(key, `${block.file}:${block.line}`);
    it(`${block.file}:${block.line}`, async () => {
      const results: string[] = [];
      for (const command of block.commands) {
        const { code, output } = await runDocCommand(command, dir);
        results.push(`${command} → exit ${code}`);
        // on a mismatch, show what the command said
        if (code !== block.exits[block.commands.indexOf(command)]) results.push(output);
      }
      expect(results).toEqual(block.commands.map((command, n) => `${command} → exit ${block.exits[n]}`));
    }, COMMAND_MS * block.commands.length);
  }

  it('leaves git status clean after all of them', () => {
    expect(gitIn(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
