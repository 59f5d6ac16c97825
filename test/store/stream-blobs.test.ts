import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { cliProject, type CliProject } from '../cli/cli-project.js';
import { commitAllOnMain } from '../helpers/git-repo.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { usePostgresStore } from '../helpers/store-test.js';

const db = usePostgresStore('stream_blobs');
let server: OpenAIServer;
const projects: CliProject[] = [];

beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
afterEach(async () => {
  for (const project of projects.splice(0)) await project.cleanup();
});

/** A clone of the echo project: its own folder and git repository on branch main, nothing shared. */
async function clone(): Promise<CliProject> {
  const project = await cliProject();
  projects.push(project);
  commitAllOnMain(project.dir);
  return project;
}

/** The system messages of the chat requests the server got from `from` on. */
function systemTexts(from: number): string[] {
  return server.requests.slice(from).flatMap((request) => {
    const messages = (request.body['messages'] ?? []) as Array<{ role: string; content: unknown }>;
    return messages.filter((message) => message.role === 'system').map((message) => String(message.content));
  });
}

test('a run streamed to the store keeps its prompt files there: a second clone reruns @main from them, not from its own edited prompt', async () => {
  const first = await clone();
  const env = { AGENTMARK_STORE_URL: db.url };
  const made = await first.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server, env });
  // The fixture's third row expects GAMMA: the echo fails it, so the gate fails (exit 1).
  expect(made.code).toBe(1);
  expect(made.stderr).not.toContain('team store');
  const [id] = await first.runIds();
  const stored = await db.storage.getRun(id as string);
  expect(stored).toMatchObject({ status: 'completed' });
  // Streamed, never pushed: every prompt file it was made from is in the store all the same.
  const hashes = (stored?.provenance?.files ?? []).map((file) => file.hash);
  expect(hashes.length).toBeGreaterThan(0);
  for (const hash of hashes) await expect(db.storage.getBlob(hash)).resolves.toEqual(expect.any(String));
  expect(await db.storage.getBlob(stored?.provenance?.files[0]?.hash as string)).toContain('<System>Repeat the word.</System>');

  const second = await clone();
  // This clone's prompt says something else: a rerun runs the text the run stored.
  await second.write('prompts/echo.prompt.mdx', (await second.read('prompts/echo.prompt.mdx')).replace('Repeat the word.', 'Shout the word.'));
  const before = server.requests.length;
  const rerun = await second.run(['rerun', '@main', '--quiet'], { server, env });
  expect(rerun.stderr).not.toContain('STORE_BLOB_MISSING');
  expect(rerun.stderr).not.toContain('is missing');
  expect(rerun.code).toBe(1);
  expect(systemTexts(before)).toEqual(['Repeat the word.', 'Repeat the word.', 'Repeat the word.']);
  const ids = await second.runIds();
  // The run brought from the store, and the rerun made of it here.
  expect(ids).toHaveLength(2);
  const rerunId = ids.find((one) => one !== id) as string;
  expect(await db.storage.getRun(rerunId)).toMatchObject({ status: 'completed', provenance: { rerunOf: id } });
}, 60_000);
