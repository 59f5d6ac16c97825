import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorList, PromptSyntaxError } from '../../src/errors/index.js';
import { projectScope } from '../../src/project/index.js';
import { loadPrompt } from '../../src/prompt/index.js';
import { tempProject } from '../helpers/temp-project.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function project(files: Record<string, string>): Promise<string> {
  const made = await tempProject({ 'agentmark.json': '{}', ...files });
  cleanup = made.cleanup;
  return made.dir;
}

async function load(dir: string, file = 'prompts/p.prompt.mdx') {
  return loadPrompt(join(dir, file), { scope: projectScope({ root: dir }) });
}

async function loadError(dir: string): Promise<PromptSyntaxError[]> {
  const error = await load(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof ErrorList) return error.errors as PromptSyntaxError[];
  if (error instanceof PromptSyntaxError) return [error];
  throw new Error(`expected a load error, got ${String(error)}`);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const prompt = (frontmatter: string) => `---\nname: p\n${frontmatter}---\n\n<User>{props.user.name}</User>\n`;

describe('$ref in input_schema and object_config.schema', () => {
  it('inlines relative files, chains, #/fragments and a file’s own #/ references; leaves the prompt’s own #/ references to ajv', async () => {
    const dir = await project({
      'prompts/p.prompt.mdx': prompt(
        [
          'object_config:',
          '  model_name: openai/gpt-4o-mini',
          '  schema:',
          '    $ref: ../schemas/answer.json',
          '    description: dropped, as in AgentMark',
          'input_schema:',
          '  type: object',
          '  properties:',
          '    user: { $ref: "../schemas/user.json" }',
          '    tag: { $ref: "#/definitions/Tag" }',
          '  definitions:',
          '    Tag: { type: string }',
          '',
        ].join('\n'),
      ),
      'schemas/user.json': json({ type: 'object', properties: { name: { type: 'string' }, address: { $ref: './shared/address.json' } } }),
      'schemas/shared/address.json': json({ type: 'object', properties: { zip: { $ref: 'common.json#/definitions/Zip' } } }),
      'schemas/shared/common.json': json({ definitions: { Zip: { $ref: '#/definitions/Digits' }, Digits: { type: 'string', pattern: '^[0-9]+$' } } }),
      'schemas/answer.json': json({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }),
    });
    const loaded = await load(dir);
    expect(loaded.inputSchema).toEqual({
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: { name: { type: 'string' }, address: { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]+$' } } } },
        },
        tag: { $ref: '#/definitions/Tag' },
      },
      definitions: { Tag: { type: 'string' } },
    });
    expect(loaded.frontmatter.object_config?.schema).toEqual({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
    expect(loaded.render({ user: { name: 'Ada' } })).toMatchObject({ object_config: { schema: { required: ['ok'] } } });
    // Watch mode reruns the prompt when one of its schema files changes.
    expect(loaded.files.map((file) => file.slice(dir.length + 1)).sort()).toEqual([
      'prompts/p.prompt.mdx',
      'schemas/answer.json',
      'schemas/shared/address.json',
      'schemas/shared/common.json',
      'schemas/user.json',
    ]);
  });

  it('reports a cycle with its chain, at the $ref that closes it (file line:col)', async () => {
    const dir = await project({
      'prompts/p.prompt.mdx': prompt('text_config:\n  model_name: openai/gpt-4o-mini\ninput_schema:\n  $ref: ../schemas/a.json\n'),
      'schemas/a.json': json({ type: 'object', properties: { b: { $ref: './b.json' } } }),
      'schemas/b.json': json({ type: 'object', properties: { a: { $ref: './a.json' } } }),
    });
    const [error, ...rest] = await loadError(dir);
    expect(rest).toEqual([]);
    expect(error?.code).toBe('PROMPT_SCHEMA_REF_CYCLE');
    expect(error?.message).toBe('circular $ref: prompts/p.prompt.mdx -> schemas/a.json -> schemas/b.json -> schemas/a.json');
    expect(error?.location).toEqual({ file: join(dir, 'schemas/b.json'), line: 5, column: 15 });
    expect(error?.hint).toMatch(/^break the cycle/);
  });

  it('a file that refers to a fragment of itself in a loop is a cycle too', async () => {
    const dir = await project({
      'prompts/p.prompt.mdx': prompt('text_config:\n  model_name: openai/gpt-4o-mini\ninput_schema:\n  $ref: ../schemas/tree.json#/definitions/Node\n'),
      'schemas/tree.json': json({ definitions: { Node: { type: 'object', properties: { child: { $ref: '#/definitions/Node' } } } } }),
    });
    const [error] = await loadError(dir);
    expect(error?.message).toBe('circular $ref: prompts/p.prompt.mdx -> schemas/tree.json#/definitions/Node -> schemas/tree.json#/definitions/Node');
  });

  it('refuses a file outside the project, before reading it, at the $ref’s line:col', async () => {
    const dir = await project({
      'prompts/p.prompt.mdx': prompt('text_config:\n  model_name: openai/gpt-4o-mini\ninput_schema:\n  type: object\n  properties:\n    x:\n      $ref: ../../../../etc/passwd\n'),
    });
    const [error] = await loadError(dir);
    expect(error?.code).toBe('PROMPT_SCHEMA_REF_OUTSIDE');
    expect(error?.message).toBe('$ref "../../../../etc/passwd" is outside the project: /etc/passwd');
    expect(error?.location).toEqual({ file: join(dir, 'prompts/p.prompt.mdx'), line: 9, column: 7 });
    expect(error?.hint).toMatch(/allowedPaths/);
  });

  it('reports a missing file, a missing fragment and invalid JSON, each where it is, all at once', async () => {
    const dir = await project({
      'prompts/p.prompt.mdx': prompt(
        'object_config:\n  model_name: openai/gpt-4o-mini\n  schema:\n    $ref: ../schemas/common.json#/definitions/Nope\ninput_schema:\n  type: object\n  properties:\n    a: { $ref: ./missing.json }\n',
      ),
      'schemas/common.json': json({ definitions: { Yes: { type: 'string' } } }),
    });
    const errors = await loadError(dir);
    expect(errors.map((error) => [error.code, error.message, error.location?.line, error.location?.column])).toEqual([
      ['PROMPT_SCHEMA_REF_NOT_FOUND', `$ref "./missing.json": no such file ${join(dir, 'prompts/missing.json')}`, 10, 10],
      ['PROMPT_SCHEMA_REF_FRAGMENT', '$ref "../schemas/common.json#/definitions/Nope": schemas/common.json has nothing at #/definitions/Nope (no "Nope")', 6, 5],
    ]);
    const broken = await project({
      'prompts/p.prompt.mdx': prompt('text_config:\n  model_name: openai/gpt-4o-mini\ninput_schema:\n  $ref: ../schemas/bad.json\n'),
      'schemas/bad.json': '{\n  "type": "object",\n}\n',
    });
    const [invalid] = await loadError(broken);
    expect(invalid?.code).toBe('PROMPT_SCHEMA_REF_INVALID');
    expect(invalid?.location).toMatchObject({ file: join(broken, 'schemas/bad.json'), line: 3 });
  });
});
