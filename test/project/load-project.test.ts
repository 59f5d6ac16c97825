import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentmarkError, ConfigError, ErrorList } from '../../src/errors/index.js';
import { loadProject } from '../../src/project/index.js';
import { makeTempDir } from './temp-dir.js';

const fixture = fileURLToPath(new URL('../fixtures/projects/basic', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function projectWith(json: string) {
  const temp = await makeTempDir({ 'agentmark.json': json });
  cleanups.push(temp.cleanup);
  return temp.dir;
}

async function loadError(dir: string): Promise<AgentmarkError> {
  const error = await loadProject(dir).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AgentmarkError);
  return error as AgentmarkError;
}

/** Each problem as `line:col code message`, the shape the CLI prints. */
function problems(error: AgentmarkError): string[] {
  const list = error instanceof ErrorList ? error.errors : [error];
  return list.map((e) => `${e.location?.line}:${e.location?.column} ${e.code} ${e.message}`);
}

describe('loadProject', () => {
  it('loads the fixture project from a folder inside it', async () => {
    const project = await loadProject(path.join(fixture, 'prompts/greet'));
    expect(project.root).toBe(fixture);
    expect(project.configPath).toBe(path.join(fixture, 'agentmark.json'));
    expect(project.promptRoot).toBe(path.join(fixture, 'prompts'));
    expect(project.builtInModels).toEqual(['openai/gpt-4o-mini']);
    expect(project.scores['tone']).toEqual({
      type: 'categorical',
      categories: [
        { label: 'professional', value: 1 },
        { label: 'casual', value: 0 },
      ],
    });
    expect(project.scores['exact']?.scorer).toBe('exact-match');
    expect(project.file['handler']).toBe('handler.ts');
  });

  it('defaults: no scores, any model, prompts in the root', async () => {
    const dir = await projectWith('{}');
    const project = await loadProject(dir);
    expect(project).toEqual({
      root: dir,
      configPath: path.join(dir, 'agentmark.json'),
      file: {},
      promptRoot: dir,
      scores: {},
      builtInModels: [],
    });
  });

  it('reports invalid JSON with line and column', async () => {
    const dir = await projectWith('{\n  "version": "2.0.0",\n  "scores": {,}\n}\n');
    const error = await loadError(dir);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('CONFIG_INVALID_JSON');
    expect(error.location).toEqual({ file: path.join(dir, 'agentmark.json'), line: 3, column: 14 });
    expect(error.message).toBe('invalid JSON: unexpected character ",", expected a property name in double quotes');
    expect(error.format()).toContain(`${path.join(dir, 'agentmark.json')}:3:14: invalid JSON`);
  });

  it('reports a trailing comma where it is', async () => {
    const dir = await projectWith('{\n  "version": "2.0.0",\n}');
    const error = await loadError(dir);
    expect(problems(error)).toEqual(['3:1 CONFIG_INVALID_JSON invalid JSON: trailing comma before \'}\'']);
  });

  it('reports every schema violation at once, each with its path and position', async () => {
    const json = [
      '{',
      '  "mdxVersion": "2.0",',
      '  "builtInModels": ["openai/gpt-4o", 42],',
      '  "scores": {',
      '    "tone": { "type": "categorical", "categories": [] },',
      '    "mood": { "type": "categorical" },',
      '    "speed": { "description": "no type" },',
      '    "size": { "type": "numeric", "min": "0" }',
      '  }',
      '}',
    ].join('\n');
    const dir = await projectWith(json);
    const error = await loadError(dir);
    expect(error).toBeInstanceOf(ErrorList);
    expect(problems(error)).toEqual([
      '2:17 CONFIG_SCHEMA /mdxVersion must be one of "1.0", "0.0" (got "2.0")',
      '3:38 CONFIG_SCHEMA /builtInModels/1 must be string (got integer)',
      '5:52 CONFIG_SCHEMA /scores/tone/categories must have at least 1 item',
      '6:13 CONFIG_SCHEMA /scores/mood must have required property "categories"',
      '7:14 CONFIG_SCHEMA /scores/speed must have required property "type"',
      '8:41 CONFIG_SCHEMA /scores/size/min must be number (got string)',
    ]);
    for (const e of (error as ErrorList).errors) expect(e.location?.file).toBe(path.join(dir, 'agentmark.json'));
  });

  it('rejects a numeric score whose min is not below max', async () => {
    const dir = await projectWith('{\n  "scores": {\n    "len": { "type": "numeric", "min": 5, "max": 5 }\n  }\n}');
    const error = await loadError(dir);
    expect(problems(error)).toEqual(['3:40 CONFIG_SCORE_INVALID /scores/len/min must be less than max (min 5, max 5)']);
  });

  it('rejects a categorical label used twice', async () => {
    const dir = await projectWith('{ "scores": { "t": { "type": "categorical", "categories": [{ "label": "a", "value": 1 }, { "label": "a", "value": 0 }] } } }');
    const error = await loadError(dir);
    expect(problems(error)).toEqual(['1:101 CONFIG_SCORE_INVALID /scores/t/categories/1/label "a" appears more than once']);
  });

  it('rejects a missing agentmarkPath folder', async () => {
    const dir = await projectWith('{ "agentmarkPath": "nowhere" }');
    const error = await loadError(dir);
    expect(error.code).toBe('CONFIG_PROMPT_ROOT_NOT_FOUND');
    expect(error.message).toBe(`/agentmarkPath "nowhere" is not a folder (${path.join(dir, 'nowhere')})`);
    expect(error.location).toEqual({ file: path.join(dir, 'agentmark.json'), line: 1, column: 20 });
  });

  it('rejects an agentmarkPath that is not a string as a schema error, not a crash', async () => {
    const dir = await projectWith('{ "agentmarkPath": 3 }');
    const error = await loadError(dir);
    expect(problems(error)).toEqual(['1:20 CONFIG_SCHEMA /agentmarkPath must be string (got integer)']);
  });

  it('accepts unknown keys and AgentMark extras', async () => {
    const dir = await projectWith('{ "handler": "x.ts", "modelSchemas": {}, "scores": { "s": { "type": "boolean", "future": 1 } } }');
    const project = await loadProject(dir);
    expect(project.scores['s']).toEqual({ type: 'boolean', future: 1 });
  });
});

describe('allowedPaths and judge prompts', () => {
  it('resolves allowedPaths against the root', async () => {
    const dir = await projectWith('{ "allowedPaths": ["../shared", "data"] }');
    const project = await loadProject(dir);
    expect(project.allowedPaths).toEqual([path.join(dir, '../shared'), path.join(dir, 'data')]);
  });

  it('refuses a judge prompt outside the project at its line:column, unless its folder is allowed', async () => {
    const scores = '"scores": {\n    "polite": { "type": "boolean", "scorer": "llm_judge", "options": { "prompt": "../judges/polite.prompt.mdx" } }\n  }';
    const dir = await projectWith(`{\n  ${scores}\n}\n`);
    const error = await loadError(dir);
    expect(error.code).toBe('CONFIG_PATH_OUTSIDE_PROJECT');
    expect(problems(error)).toEqual([
      `3:82 CONFIG_PATH_OUTSIDE_PROJECT /scores/polite/options/prompt "../judges/polite.prompt.mdx" is outside the project: ${path.resolve(dir, '../judges/polite.prompt.mdx')}`,
    ]);
    const allowed = await projectWith(`{\n  "allowedPaths": ["../judges"],\n  ${scores}\n}\n`);
    expect((await loadProject(allowed)).scores['polite']?.options).toEqual({ prompt: '../judges/polite.prompt.mdx' });
  });
});
