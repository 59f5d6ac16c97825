import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

// AgentMark's row flags with AgentMark's meaning (docs.agentmark.co, "Dataset sampling"):
// --sample is a percentage, --split's number is always the train portion.
const TEN_ROWS = Array.from({ length: 10 }, (_, i) => JSON.stringify({ input: { word: `w${i}` }, expected_output: `w${i}` })).join('\n');

let server: OpenAIServer;
let project: CliProject;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = await cliProject({ 'datasets/words.jsonl': `${TEN_ROWS}\n` });
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

async function indexes(...flags: string[]): Promise<number[]> {
  const result = await project.run(['run-experiment', '--quiet', 'prompts/echo.prompt.mdx', '--format', 'jsonl', ...flags], { server });
  expect(result.stderr).toBe('');
  return result.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { index: number }).index).sort((a, b) => a - b);
}

async function usage(...flags: string[]): Promise<string> {
  const before = server.requests.length;
  const result = await project.run(['run-experiment', 'prompts/echo.prompt.mdx', ...flags], { server });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(server.requests.length).toBe(before);
  return result.stderr;
}


describe("run-experiment's row flags mean what they mean in AgentMark", () => {
  it('--sample <percent> runs that percentage of the rows, the same ones for the same seed', async () => {
    const twenty = await indexes('--sample', '20', '--seed', '3');
    expect(twenty).toHaveLength(2);
    expect(await indexes('--sample', '20', '--seed', '3')).toEqual(twenty);
    expect(await indexes('--sample', '100')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('--sample without --seed is still reproducible (seed 0), unlike AgentMark\'s', async () => {
    const half = await indexes('--sample', '50');
    expect(half).toHaveLength(5);
    expect(await indexes('--sample', '50', '--seed', '0')).toEqual(half);
  });

  it('--sample outside 1..100 is exit 2 before any call', async () => {
    const hint = '  hint: e.g. --sample 20 --seed 7 for 20% of the rows; --sample-rows <n> picks n rows, --limit <n> the first n\n';
    expect(await usage('--sample', '0')).toBe(`error: --sample "0": expected a percentage of the rows, a whole number from 1 to 100\n${hint}`);
    expect(await usage('--sample', '150')).toBe(`error: --sample "150": expected a percentage of the rows, a whole number from 1 to 100\n${hint}`);
  });

  it('--limit <n> runs the first n rows', async () => {
    expect(await indexes('--limit', '3')).toEqual([0, 1, 2]);
  });

  it('--sample-rows <n> runs a seeded random n; it and --limit exclude each other', async () => {
    const four = await indexes('--sample-rows', '4', '--seed', '1');
    expect(four).toHaveLength(4);
    expect(await indexes('--sample-rows', '4', '--seed', '1')).toEqual(four);
    expect(await usage('--limit', '2', '--sample-rows', '2')).toBe('error: --sample-rows and --limit cannot be used together\n  hint: pick one way of choosing rows\n');
    expect(await usage('--limit', '2', '--seed', '2')).toBe('error: --seed only applies to --sample, --sample-rows or --split\n');
  });

  it('--split train:80 is the first 80% of the rows, test:80 the other 20%', async () => {
    expect(await indexes('--split', 'train:80')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await indexes('--split', 'test:80')).toEqual([8, 9]);
  });

  it('--split with --seed: train:70 and test:70 partition the rows', async () => {
    const train = await indexes('--split', 'train:70', '--seed', '4');
    const test = await indexes('--split', 'test:70', '--seed', '4');
    expect([...train, ...test].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(train.filter((i) => test.includes(i))).toEqual([]);
  });

  it('--split with a name other than train or test is exit 2', async () => {
    const hint = '  hint: e.g. --split train:80 (the 80%) or --split test:80 (the other 20%): the number is always the train portion\n';
    expect(await usage('--split', 'dev:80')).toBe(`error: --split "dev:80": the portion must be train or test, not "dev"\n${hint}`);
    expect(await usage('--split', 'validation:20')).toBe(`error: --split "validation:20": the portion must be train or test, not "validation"\n${hint}`);
  });
});
