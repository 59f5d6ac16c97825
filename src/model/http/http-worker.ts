/**
 * The worker thread that sends a run's model requests (see http-thread.ts): it does the HTTP
 * exchanges the main thread asks for and hands back whole answers, a turn's worth per message.
 */
import { parentPort } from 'node:worker_threads';
import { exchange } from './exchange.js';
import type { FromHttpThread, ToHttpThread } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('http-worker.js runs as a worker thread');

const inFlight = new Map<number, { cancel(): void }>();
let results: FromHttpThread['results'] = [];

/** Answers go back together at the end of this thread's turn: one message, not one per answer. */
function report(result: FromHttpThread['results'][number]): void {
  if (results.length === 0) {
    setImmediate(() => {
      const message: FromHttpThread = { type: 'done', results };
      results = [];
      port?.postMessage(message);
    });
  }
  results.push(result);
}

port.on('message', (message: ToHttpThread) => {
  if (message.type === 'cancel') {
    inFlight.get(message.id)?.cancel();
    inFlight.delete(message.id);
    return;
  }
  const started: Array<{ send(): void }> = [];
  for (const { id, ...request } of message.requests) {
    try {
      const handle = exchange(request, (answer, failure) => {
        inFlight.delete(id);
        if (answer === undefined) report({ id, failure: { message: failure?.message ?? 'fetch failed', code: failure?.code } });
        else {
          const { status, statusText, headers, rawHeaders } = answer;
          // Copied to its exact size: a view into a larger buffer would be cloned whole. The raw
          // headers go only with a streamed answer, the one kind that reads them (node-fetch.ts):
          // for the rest they would double what each answer's headers cost to clone, both sides.
          const streamed = String(headers['content-type']).includes('text/event-stream');
          report({ id, answer: { status, statusText, headers, ...(streamed ? { rawHeaders } : {}), payload: new Uint8Array(answer.payload) } });
        }
      });
      inFlight.set(id, handle);
      started.push(handle);
    } catch (error) {
      // A request node refuses to build (a header with a newline) fails alone, not the thread.
      const { message, code } = error as Error & { code?: unknown };
      report({ id, failure: { message: String(message), code: typeof code === 'string' ? code : undefined } });
    }
  }
  // The message is already a burst (see node-fetch.ts): sent at once, together.
  for (const handle of started) handle.send();
});
