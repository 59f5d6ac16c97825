/**
 * The corpus of malformed projects under test/fixtures/bad/: one folder per case, holding a
 * small project and an `expected.json` that says which command to run and what it must print.
 * Large inputs (a 10 MB line, a 10,000-segment prop path, ...) are generated into the temp copy
 * instead of being committed.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FIXTURES } from '../helpers/temp-project.js';

export const BAD_ROOT = join(FIXTURES, 'bad');

export interface BadCase {
  name: string;
  /** CLI arguments, run from the project folder. */
  command: string[];
  exitCode: number;
  /**
   * Lines that must each appear in stdout or stderr; `{{dir}}` stands for the project folder,
   * and a line written `/…/` is a regular expression for a line.
   */
  lines: string[];
  /** Name of a generator below that writes the large files into the copy. */
  generate?: string;
  why?: string;
}

const FRONTMATTER = '---\nname: x\ntext_config:\n  model_name: openai/gpt-4o-mini\n---\n';

/** Writers of inputs too large to commit; each gets the temp project folder. */
const generators: Record<string, (dir: string) => Promise<void>> = {
  /** A 10 MB JSON line that is cut short (no closing brace): one error, pointing at its end. */
  'dataset-10mb-line': (dir) =>
    put(dir, 'prompts/x.jsonl', `{"input":{"q":"a"}}\n{"input":{"q":"${'x'.repeat(10 * 1024 * 1024)}"}\n`),
  'prop-path-10000-segments': (dir) => put(dir, 'prompts/x.prompt.mdx', `${FRONTMATTER}<User>\n{props${'.a'.repeat(10_000)}}\n</User>\n`),
  /** 20,000 nested YAML flow sequences in the frontmatter. */
  'yaml-deep-nesting': (dir) =>
    put(dir, 'prompts/x.prompt.mdx', `${FRONTMATTER.slice(0, -4)}deep: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n---\n<User>hi</User>\n`),
  /** Props 20,000 objects deep, dumped by the template. */
  'props-file-deep-nesting': (dir) => put(dir, 'deep.json', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`),
  /** 50,000 nested <If> tags on one line inside <User>. */
  'tags-50000-deep': (dir) =>
    put(dir, 'prompts/x.prompt.mdx', `${FRONTMATTER}<User>\n${'<If condition={true}>'.repeat(50_000)}x${'</If>'.repeat(50_000)}\n</User>\n`),
  /** A folder inside the project that is a symlink to /etc (symlinks are made here, not committed). */
  'symlink-to-etc': (dir) => symlink('/etc', join(dir, 'prompts/system')),
  /** app/prompts/data -> ../../shared: a path inside the project that leads outside it. */
  'symlink-to-shared': (dir) => symlink('../../shared', join(dir, 'app/prompts/data')),
};

async function put(dir: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

export async function listBadCases(): Promise<BadCase[]> {
  const names = (await readdir(BAD_ROOT, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const cases: BadCase[] = [];
  for (const name of names.sort()) {
    const expected = JSON.parse(await readFile(join(BAD_ROOT, name, 'expected.json'), 'utf8')) as Omit<BadCase, 'name'>;
    cases.push({ name, ...expected });
  }
  return cases;
}

/** A temp copy of the case (without expected.json), with its generated files; realpath'd. */
export async function materialise(badCase: BadCase): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), `agentmark-bad-${badCase.name}-`)));
  await cp(join(BAD_ROOT, badCase.name), dir, { recursive: true, filter: (source) => !source.endsWith('expected.json') });
  if (badCase.generate !== undefined) {
    const generate = generators[badCase.generate];
    if (!generate) throw new Error(`${badCase.name}: unknown generator ${badCase.generate}`);
    await generate(dir);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Each expected line as a test of one output line. */
export function expectedLines(badCase: BadCase, dir: string): Array<{ shown: string; matches: (line: string) => boolean }> {
  return badCase.lines.map((text) => {
    if (text.length > 2 && text.startsWith('/') && text.endsWith('/')) {
      const pattern = new RegExp(text.slice(1, -1));
      return { shown: text, matches: (line) => pattern.test(line) };
    }
    const wanted = text.split('{{dir}}').join(dir);
    // Exit-0 cases list JSON fragments of the rendered output, compared without indentation.
    return { shown: wanted, matches: badCase.exitCode === 0 ? (line) => line.trim() === wanted : (line) => line === wanted };
  });
}
