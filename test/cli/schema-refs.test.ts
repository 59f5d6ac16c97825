import { afterEach, describe, expect, it } from 'vitest';
import { cliProject, type CliProject } from './cli-project.js';

let project: CliProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const PROMPT = (ref: string) =>
  `---\nname: refs\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\ninput_schema:\n  $ref: ${ref}\n---\n\n<User>{props.word}</User>\n`;

describe('$ref files in schemas, from the command line', () => {
  it('validate checks the dataset against the inlined schema, and names the row that breaks it', async () => {
    project = await cliProject({
      'prompts/refs.prompt.mdx': PROMPT('../schemas/word.json'),
      'schemas/word.json': '{ "type": "object", "properties": { "word": { "$ref": "./short.json" } }, "required": ["word"] }\n',
      'schemas/short.json': '{ "type": "string", "maxLength": 5 }\n',
    });
    expect(await project.run(['validate', 'prompts/refs.prompt.mdx'])).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (3 rows) in .\n' });
    await project.write('schemas/short.json', '{ "type": "string", "maxLength": 4 }\n');
    const tooLong = await project.run(['validate', 'prompts/refs.prompt.mdx']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stdout).toMatch(/^datasets\/words\.jsonl:\d+(:\d+)?: .*input\/word must NOT have more than 4 characters/m);
  });

  it('a cycle or a file outside the project is exit 2 with file:line:col, before any call', async () => {
    project = await cliProject({
      'prompts/refs.prompt.mdx': PROMPT('../schemas/a.json'),
      'schemas/a.json': '{ "$ref": "./b.json" }\n',
      'schemas/b.json': '{\n  "$ref": "./a.json"\n}\n',
    });
    const cycle = await project.run(['run-experiment', 'prompts/refs.prompt.mdx']);
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toMatch(
      /^error: schemas\/b\.json:2:11: circular \$ref: prompts\/refs\.prompt\.mdx -> schemas\/a\.json -> schemas\/b\.json -> schemas\/a\.json\n  hint: break the cycle/,
    );
    await project.write('prompts/refs.prompt.mdx', PROMPT('../../outside.json'));
    const outside = await project.run(['validate']);
    expect(outside.code).toBe(2);
    expect(outside.stdout).toMatch(/^prompts\/refs\.prompt\.mdx:8:3: \$ref "\.\.\/\.\.\/outside\.json" is outside the project: /m);
  });
});
