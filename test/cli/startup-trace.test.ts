/** `AGENTMARK_TRACE_STARTUP=1`: a run's start-up phases on stderr, in order; nothing without it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { echoResponder, useOpenAIServer, type OpenAIReply } from '../helpers/openai-server.js';
import { cliProject, type CliProject } from './cli-project.js';

const server = useOpenAIServer();
let project: CliProject;
beforeEach(async () => {
  project = await cliProject({ 'prompts/scored.prompt.mdx': '---\nname: scored\ntext_config:\n  model_name: openai/gpt-4o-mini\ntest_settings:\n  dataset: ../datasets/words.jsonl\n  evals: [length]\n---\n\n<User>{props.word}</User>\n' });
  server.setHandler((request) => echoResponder(request) as OpenAIReply);
});
afterEach(() => project.cleanup());

const ARGS = ['run-experiment', 'prompts/scored.prompt.mdx', '--quiet', '--format', 'jsonl', '--output', '/dev/null'];

describe('AGENTMARK_TRACE_STARTUP', () => {
  it('prints each phase once, in order, with the time since the process started', async () => {
    const result = await project.run(ARGS, { server, env: { AGENTMARK_TRACE_STARTUP: '1' } });
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^startup \d+\.\d ms [a-z -]+$/);
    expect(lines.map((line) => line.replace(/^startup \d+\.\d ms /, ''))).toEqual([
      'bin started',
      'bin loaded',
      'command run-experiment loaded',
      'project opened',
      'config loaded',
      'prompt loaded',
      'model caller created',
      'evals bound',
      'dataset checked and hashed',
      'run opened',
      'first model request',
      'scorer worker spawned',
      'scorer worker ready',
    ]);
    const times = lines.map((line) => Number(/^startup (\S+)/.exec(line)?.[1]));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('prints nothing when unset or not 1', async () => {
    for (const env of [{}, { AGENTMARK_TRACE_STARTUP: '0' }]) {
      const result = await project.run(ARGS, { server, env });
      expect(result).toMatchObject({ code: 0, stderr: '' });
    }
  });
});
