// The AI SDK's own floor for the overhead scenarios: the same requests the CLI sends for the
// bench project, made through `@ai-sdk/openai` against the same loopback server at the same
// concurrency, with nothing else (no prompt, dataset, cache, scoring or results file). It
// measures what a run cannot go below while it calls the provider, next to the bare loop
// (bare-loop.mjs), which makes the same requests with node:http alone.
//
//   node bench/sdk-floor.mjs <base url ending in /v1> <rows> <concurrency> <mode>
//
// Modes:
//   generate-text       `generateText` from `ai` with the provider's default fetch (what a plain SDK user writes)
//   generate-text-node  `generateText` with the CLI's node:http fetch (dist/model/node-fetch.js: run `npm run build` first)
//   do-generate         the provider model's `doGenerate` (what the CLI calls for a plain prompt), default fetch
//   do-generate-node    `doGenerate` with the CLI's node:http fetch, sent from the main thread
//
// Prints one JSON line: { "rows": n, "ok": n, "mode": m } and exits 1 if an answer was wrong.
import { createOpenAI } from '@ai-sdk/openai';

const [baseURL, rowsArg, concurrencyArg, mode = 'generate-text'] = process.argv.slice(2);
const rows = Number(rowsArg);
const concurrency = Number(concurrencyArg);
const SYSTEM = 'Answer with "answer" followed by the number in the question.';

const fetchImpl = mode.endsWith('-node') ? (await import('../dist/model/node-fetch.js')).nodeFetch : undefined;
const provider = createOpenAI({ apiKey: 'bench', baseURL, ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }) });
const model = provider.chat('bench-model');
const { generateText } = mode.startsWith('generate-text') ? await import('ai') : { generateText: undefined };

async function call(index) {
  const question = `question ${index}`;
  if (generateText !== undefined) {
    const result = await generateText({
      model,
      temperature: 0,
      maxOutputTokens: 8,
      maxRetries: 0,
      allowSystemInMessages: true,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: question },
      ],
    });
    return result.text;
  }
  const result = await model.doGenerate({
    temperature: 0,
    maxOutputTokens: 8,
    prompt: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [{ type: 'text', text: question }] },
    ],
  });
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

let next = 0;
let ok = 0;
async function worker() {
  while (next < rows) {
    const index = next;
    next += 1;
    if ((await call(index)) === `answer ${index}`) ok += 1;
  }
}

await Promise.all(Array.from({ length: Math.min(concurrency, rows) }, () => worker()));
process.stdout.write(`${JSON.stringify({ rows, ok, mode })}\n`);
process.exitCode = ok === rows ? 0 : 1;
