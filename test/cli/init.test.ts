import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { runCli } from '../helpers/run-cli.js';
import { tempProject } from '../helpers/temp-project.js';

// A stand-in model that classifies as a real one would, so the live run passes its evals.
let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer({
    handler: (request) => ({ text: /cold|rude|never again/i.test(request.lastUserText) ? 'negative' : 'positive' }),
  });
});
afterAll(() => server.close());

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function emptyDir(files: Record<string, string> = {}): Promise<string> {
  const dir = await tempProject(files);
  cleanup = dir.cleanup;
  return dir.dir;
}

const FILES = ['agentmark.json', 'agentmark.config.ts', 'prompts/sentiment.prompt.mdx', 'datasets/sentiment.jsonl', 'datasets/sentiment-outputs.jsonl'];

describe('agentmark init', () => {
  it('scaffolds a project that validates, scores with no key, and runs against a model', async () => {
    const parent = await emptyDir();
    const init = await runCli(['init', 'my-evals'], { cwd: parent });
    expect(init).toMatchObject({ code: 0, stderr: '' });
    expect(init.stdout).toBe(
      [
        'Created an AgentMark project in my-evals:',
        ...FILES.map((file) => `  ${file}`),
        '  .gitignore (added .agentmark/, .env, .env.local, node_modules/)',
        '',
        'Next:',
        '  cd my-evals',
        '  npx agentmark validate',
        '  npx agentmark score prompts/sentiment.prompt.mdx --outputs datasets/sentiment-outputs.jsonl    # no key needed',
        '  npx agentmark run-experiment prompts/sentiment.prompt.mdx    # put OPENAI_API_KEY=... in .env.local first',
        '',
      ].join('\n'),
    );
    const dir = join(parent, 'my-evals');
    const json = JSON.parse(await readFile(join(dir, 'agentmark.json'), 'utf8')) as Record<string, unknown>;
    expect(json['$schema']).toBe('./node_modules/agentmark-eval/schema/agentmark.schema.json');
    expect(await readFile(join(dir, 'prompts/sentiment.prompt.mdx'), 'utf8')).toContain('test_settings:\n  dataset: ../datasets/sentiment.jsonl\n');

    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate).toMatchObject({ code: 0, stdout: 'ok: 1 prompt, 1 dataset (4 rows) in .\n', stderr: '' });

    // No key and no server: the pre-generated outputs are scored, the custom scorer included.
    const score = await runCli(['score', 'prompts/sentiment.prompt.mdx', '--outputs', 'datasets/sentiment-outputs.jsonl', '--format', 'json'], { cwd: dir });
    expect(score.code).toBe(0);
    const scored = JSON.parse(score.stdout) as { rows: Array<{ evals: Record<string, { passed: boolean; reason: string }> }> };
    expect(scored.rows.map((row) => [row.evals['correct_label']?.passed, row.evals['one_word']?.reason])).toEqual([
      [true, '1 word'],
      [true, '1 word'],
      [true, '1 word'],
      [true, '1 word'],
    ]);

    // The live run, with the server named in .env.local as a user would put a key there.
    await writeFile(join(dir, '.env.local'), `OPENAI_BASE_URL=${server.url}\n`);
    const live = await runCli(['run-experiment', 'prompts/sentiment.prompt.mdx', '--quiet', '--format', 'jsonl'], { cwd: dir });
    expect(live.code).toBe(0);
    // Lines come in the order rows finish: pair each answer with its review.
    const rows = live.stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: { review: string }; output: string });
    expect(Object.fromEntries(rows.map((row) => [row.input.review, row.output]))).toEqual({
      'The pasta was perfect and the staff were lovely.': 'positive',
      'We waited an hour and the food arrived cold.': 'negative',
      'Best tiramisu I have had in years!': 'positive',
      'Rude staff, dirty tables, never again.': 'negative',
    });
  });

  it('--conversation adds a support chat with a simulated customer that validates and runs', async () => {
    const dir = await emptyDir();
    const init = await runCli(['init', '--conversation'], { cwd: dir });
    expect(init).toMatchObject({ code: 0, stderr: '' });
    expect(init.stdout).toContain(
      ['  datasets/sentiment-outputs.jsonl', '  prompts/support-chat.prompt.mdx', '  simulators/customer.prompt.mdx', '  datasets/support-chat.jsonl', ''].join('\n'),
    );
    expect(init.stdout).toContain('  npx agentmark run-experiment prompts/support-chat.prompt.mdx    # a simulated customer chats with it\n');
    const scores = (JSON.parse(await readFile(join(dir, 'agentmark.json'), 'utf8')) as { scores: Record<string, unknown> }).scores;
    expect(Object.keys(scores)).toEqual(['correct_label', 'one_word', 'conversation_ended', 'no_blame']);
    expect(await runCli(['validate'], { cwd: dir })).toMatchObject({ code: 0, stderr: '' });

    // The customer says two lines, then stop; the assistant answers each.
    const chat = await startOpenAIServer({
      handler: (request) => {
        if (!request.messagesText.startsWith('system: You are a customer')) return { text: `Happy to help: ${request.lastUserText}` };
        const said = request.messagesText.split('\n').filter((line) => line.startsWith('assistant:')).length;
        return { text: ['Hello, I need help.', 'Thanks!'][said] ?? '###STOP###' };
      },
    });
    try {
      await writeFile(join(dir, '.env.local'), `OPENAI_BASE_URL=${chat.url}\n`);
      const live = await runCli(['run-experiment', 'prompts/support-chat.prompt.mdx', '--quiet', '--format', 'jsonl'], { cwd: dir });
      expect(live.code).toBe(0);
      const rows = live.stdout.trim().split('\n').map((line) => JSON.parse(line) as { conversation: { messages: unknown[]; endedBy: string } });
      expect(rows.map((row) => [row.conversation.messages.length, row.conversation.endedBy])).toEqual([[4, 'stop'], [4, 'stop']]);
    } finally {
      await chat.close();
    }
  });

  it('refuses to overwrite without --force (exit 2 naming the files), and --force overwrites', async () => {
    const dir = await emptyDir({ 'agentmark.json': '{}\n', 'datasets/sentiment.jsonl': 'mine\n', '.gitignore': 'dist\n.env\n' });
    const refused = await runCli(['init'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'error: not overwriting what is already there: agentmark.json, datasets/sentiment.jsonl\n' +
        '  hint: run `agentmark init` in an empty folder, give another folder (`agentmark init my-evals`), or add --force to overwrite these files\n',
    );
    expect(await readFile(join(dir, 'datasets/sentiment.jsonl'), 'utf8')).toBe('mine\n');
    await expect(readFile(join(dir, 'agentmark.config.ts'), 'utf8')).rejects.toThrow(/ENOENT/);

    const forced = await runCli(['init', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Created an AgentMark project in the current folder:\n');
    expect(forced.stdout).toContain('  .gitignore (added .agentmark/, .env.local, node_modules/)\n');
    expect(forced.stdout).not.toContain('  cd ');
    // .gitignore keeps what it had and gains only what it lacked.
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('dist\n.env\n\n# agentmark: what runs write, and local secrets\n.agentmark/\n.env.local\nnode_modules/\n');
    expect((await readFile(join(dir, 'datasets/sentiment.jsonl'), 'utf8')).split('\n')[0]).toContain('"expected_output":"positive"');
    expect(await runCli(['validate'], { cwd: dir })).toMatchObject({ code: 0 });
  });
});
