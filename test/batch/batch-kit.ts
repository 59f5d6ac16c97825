import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RowResult } from '../../src/experiment/index.js';
import type { useOpenAIServer } from '../helpers/openai-server.js';

type Server = ReturnType<typeof useOpenAIServer>;

/** The environment a batch run needs to reach the loopback server. */
export const batchEnv = (server: Server): NodeJS.ProcessEnv => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test' });

/** Batch jobs created on the server so far. */
export const batchCreates = (server: Server): number => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches').length;

/** The run's stored rows in dataset order. */
export async function rowsOf(runDir: string): Promise<RowResult[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RowResult)
    .sort((a, b) => a.index - b.index);
}
