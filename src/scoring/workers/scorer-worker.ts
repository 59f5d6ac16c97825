/**
 * A worker thread that runs the user scorers of agentmark.config.*. Functions cannot cross a
 * thread boundary, so it loads the config itself, with the loader the CLI uses, and receives
 * only each row's params (structured-cloned). The main thread can terminate it when a scorer
 * never returns; see scorer-pool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../../project/load-config.js';
import { messageOf } from '../error-message.js';
import type { Scorer } from '../types.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('scorer-worker.js runs as a worker thread');
const setup = workerData as WorkerSetup;
const running = new Map<number, AbortController>();
let scorers: Record<string, Scorer> = {};

function post(message: FromWorker): void {
  port?.postMessage(message);
}

// A user scorer's stray rejection must not end the thread other rows' evals are running on.
process.on('unhandledRejection', () => undefined);

async function run(id: number, name: string, params: Parameters<Scorer>[0]): Promise<void> {
  post({ type: 'started', id });
  const scorer = Object.hasOwn(scorers, name) ? scorers[name] : undefined;
  if (scorer === undefined) {
    post({ type: 'threw', id, message: `agentmark.config has no scorer named ${name} when loaded in a worker thread` });
    return;
  }
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const result: unknown = await scorer(params, { signal: controller.signal });
    if (controller.signal.aborted) return;
    try {
      post({ type: 'done', id, result });
    } catch (error) {
      post({ type: 'threw', id, message: `the scorer's result cannot be passed between threads (${messageOf(error)}); return plain data` });
    }
  } catch (error) {
    if (!controller.signal.aborted) post({ type: 'threw', id, message: messageOf(error) });
  } finally {
    running.delete(id);
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') void run(message.id, message.name, message.params);
  else if (message.type === 'cancel') running.get(message.id)?.abort();
  else post({ type: 'pong', id: message.id });
});

try {
  scorers = (await loadConfig({ root: setup.root }, { fsCache: true, client: true })).scorers ?? {};
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: messageOf(error) });
}
