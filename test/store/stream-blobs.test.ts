import { expect, test } from 'vitest';
import { usePostgresStore } from '../helpers/store-test.js';
import { useEchoClones } from './echo-clones.js';

const db = usePostgresStore('stream_blobs');
const clones = useEchoClones();
const { clone } = clones;


/** The system messages of the chat requests the server got from `from` on. */
function systemTexts(from: number): string[] {
  return clones.server.requests.slice(from).flatMap((request) => {
    const messages = (request.body['messages'] ?? []) as Array<{ role: string; content: unknown }>;
    return messages.filter((message) => message.role === 'system').map((message) => String(message.content));
  });
}

test('a run streamed to the store keeps its prompt files there: a second clone reruns @main from them, not from its own edited prompt', async () => {
  const first = await clone();
  const env = { AGENTMARK_STORE_URL: db.url };
  const made = await first.run(['run-experiment', 'prompts/echo.prompt.mdx'], { server: clones.server, env });
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
  const before = clones.server.requests.length;
  const rerun = await second.run(['rerun', '@main', '--quiet'], { server: clones.server, env });
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
