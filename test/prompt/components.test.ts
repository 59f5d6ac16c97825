import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPrompt } from '../../src/prompt/index.js';
import { FRONTMATTER, loadBody, loadError, writeFiles } from './helpers.js';

describe('components', () => {
  it('renders a component with its own props and children, and lists every file read', async () => {
    const dir = await writeFiles({
      'main.prompt.mdx': `${FRONTMATTER}import Persona from './parts/persona.mdx'\nimport Card from './parts/card.mdx'\n\n<System>\n<Persona tone={props.tone} name="Max" />\n\nRules follow.\n</System>\n<User>\n<Card title={upper(props.title)}>\n  Body with {props.title}\n</Card>\n</User>\n`,
      'parts/persona.mdx': "import Sig from './sig.mdx'\n\nYou are {props.name}, a {props.tone} assistant. <Sig />\n",
      'parts/sig.mdx': '(signed)\n',
      'parts/card.mdx': '## {props.title}\n\n{props.children}\n',
    });
    const prompt = await loadPrompt(join(dir, 'main.prompt.mdx'));
    expect(prompt.render({ tone: 'calm', title: 'news' }).messages).toEqual([
      { role: 'system', content: 'You are Max, a calm assistant. (signed)\n\nRules follow.' },
      { role: 'user', content: '## NEWS\n\nBody with news' },
    ]);
    expect(prompt.files).toEqual([
      join(dir, 'main.prompt.mdx'),
      join(dir, 'parts/persona.mdx'),
      join(dir, 'parts/sig.mdx'),
      join(dir, 'parts/card.mdx'),
    ]);
  });

  it('takes an If/Else chain at the top level of a component body', async () => {
    const component = 'Write as {props.brand}.\n<If condition={props.formal}>\nBe formal.\n</If>\n<Else>\nBe warm.\n</Else>\n{props.children}\n';
    const prompt = await loadBody("import G from './g.mdx'\n\n<System>\n<G brand=\"Acme\" formal={props.formal}>\nNo blame.\n</G>\n</System>\n", { 'g.mdx': component });
    expect(prompt.render({ formal: true }).messages).toEqual([{ role: 'system', content: 'Write as Acme.\nBe formal.\nNo blame.' }]);
    expect(prompt.render({ formal: false }).messages).toEqual([{ role: 'system', content: 'Write as Acme.\nBe warm.\nNo blame.' }]);
  });

  it('does not let a component see the caller props', async () => {
    const prompt = await loadBody("import A from './a.mdx'\n\n<User><A x=\"1\" /></User>\n", { 'a.mdx': '[{props.x}][{props.secret}]\n' });
    expect(prompt.render({ secret: 's' }).messages).toEqual([{ role: 'user', content: '[1][]' }]);
  });

  it('rejects named imports', async () => {
    expect(await loadError(loadBody("import { A } from './a.mdx'\n\n<User>hi</User>\n", { 'a.mdx': 'x' }))).toEqual([
      "PROMPT_NAMED_IMPORT main.prompt.mdx:6:1: only default imports are supported: import Name from './a.mdx' | hint: write: import A from './a.mdx'",
    ]);
  });

  it('rejects exports', async () => {
    expect(await loadError(loadBody('export const a = 1\n\n<User>hi</User>\n'))).toEqual([
      'PROMPT_EXPORT_NOT_ALLOWED main.prompt.mdx:6:1: exports are not allowed; a prompt or component may only default-import .mdx components',
    ]);
  });

  it('rejects import cycles, naming the files', async () => {
    const extra = { 'a.mdx': "import B from './b.mdx'\n\n<B />\n", 'b.mdx': "import A from './a.mdx'\n\n<A />\n" };
    expect(await loadError(loadBody("import A from './a.mdx'\n\n<User><A /></User>\n", extra))).toEqual([
      'PROMPT_IMPORT_CYCLE b.mdx:1:1: import cycle: a.mdx -> b.mdx -> a.mdx',
    ]);
    expect(await loadError(loadBody("import Me from './main.prompt.mdx'\n\n<User><Me /></User>\n"))).toEqual([
      'PROMPT_IMPORT_CYCLE main.prompt.mdx:6:1: import cycle: main.prompt.mdx -> main.prompt.mdx',
    ]);
  });

  it('names a missing component file', async () => {
    const [message] = await loadError(loadBody("import A from './nope.mdx'\n\n<User><A /></User>\n"));
    expect(message).toMatch(/^PROMPT_COMPONENT_NOT_FOUND main\.prompt\.mdx:6:1: component file not found: '\.\/nope\.mdx' \(looked for .*\/nope\.mdx\)$/);
  });

  it('stops components nested beyond the depth limit', async () => {
    const extra: Record<string, string> = {};
    for (let i = 0; i < 40; i++) extra[`c${i}.mdx`] = `import Next from './c${i + 1}.mdx'\n\n${i}<Next />\n`;
    extra['c40.mdx'] = 'end\n';
    const prompt = await loadBody("import C from './c0.mdx'\n\n<User><C /></User>\n", extra);
    expect(() => prompt.render({})).toThrow('components are nested more than 32 deep at <Next>');
  });

  it('renders a component whose body is role tags as messages, where it stands', async () => {
    const extra = { 'turn.mdx': '<User>{props.q}</User>\n<Assistant>{props.a}</Assistant>\n' };
    const prompt = await loadBody("import Turn from './turn.mdx'\n\n<System>sys</System>\n<Turn q=\"2+2?\" a=\"4\" />\n<User>{props.q}</User>\n", extra);
    expect(prompt.warnings).toEqual([]);
    expect(prompt.render({ q: '3+3?' }).messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: '2+2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: '3+3?' },
    ]);
  });

  it('rejects a component that holds role tags inside a role tag', async () => {
    expect(await loadError(loadBody("import A from './a.mdx'\n\n<User><A /></User>\n", { 'a.mdx': '<User>x</User>\n' }))).toEqual([
      'PROMPT_NESTED_ROLE main.prompt.mdx:8:7: <A> holds role tags, so it cannot be inside <User> | hint: use the component outside role tags',
    ]);
  });
});
