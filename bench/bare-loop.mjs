// The ideal for the overhead and scale scenarios: the least a client can do for the same work.
// It sends the same chat completion requests the CLI sends for the bench project (the system
// and user message of each row) to the same loopback server, over keep-alive connections, at the
// same concurrency, parses each answer and checks it — and does nothing else: no prompt, no
// dataset file, no SDK, no cache, no scoring, no results file. Like the CLI, it sends the
// requests made in one event-loop turn together at the turn's end: on a fast loopback server a
// request written alone wakes a sleeping server and costs the writer several times more (~13%
// of this loop's own time), so a loop that did not would flatter the CLI. Run as its own
// process, so its wall time includes node's start-up like the CLI's does.
//
//   node bench/bare-loop.mjs <base url ending in /v1> <rows> <concurrency>
//
// Prints one JSON line: { "rows": n, "ok": n } and exits 1 if an answer was wrong.
import { Agent, request } from 'node:http';

const [baseUrl, rowsArg, concurrencyArg] = process.argv.slice(2);
const rows = Number(rowsArg);
const concurrency = Number(concurrencyArg);
const url = new URL(`${baseUrl}/chat/completions`);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const SYSTEM = 'Answer with "answer" followed by the number in the question.';

function post(body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer bench' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    sendWithTurn(() => req.end(body));
  });
}

/** The requests of this turn, written together at its end. */
let sends = [];
function sendWithTurn(send) {
  if (sends.length === 0) {
    setImmediate(() => {
      const batch = sends;
      sends = [];
      for (const each of batch) each();
    });
  }
  sends.push(send);
}

let next = 0;
let ok = 0;
async function worker() {
  while (next < rows) {
    const index = next;
    next += 1;
    const body = JSON.stringify({
      model: 'bench-model',
      temperature: 0,
      max_tokens: 8,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `question ${index}` },
      ],
    });
    const answer = await post(body);
    if (answer.choices?.[0]?.message?.content === `answer ${index}`) ok += 1;
  }
}

await Promise.all(Array.from({ length: Math.min(concurrency, rows) }, () => worker()));
agent.destroy();
process.stdout.write(`${JSON.stringify({ rows, ok })}\n`);
process.exitCode = ok === rows ? 0 : 1;
