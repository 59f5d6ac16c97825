// Records the SAMPLE responses that let the root example run offline.
//
// A small local server speaks the OpenAI chat-completions API and answers with hand-written,
// deterministic sample answers (not real model output); the real CLI runs every example prompt
// against it with --no-cache, which stores each answer in the live cache .agentmark/cache/; the
// recorded segments then replace those in examples/responses/, the replay folder agentmark.json
// names (runs only read it). This is the README's "record your own fixtures" recipe, with the
// developer's own live cache set aside and put back. Rerun after changing an example prompt or
// dataset:  npm run build && node examples/record-samples.mjs
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readRows = (file) =>
  readFileSync(new URL(`../datasets/${file}`, import.meta.url), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const emails = new Map(readRows('order-emails.jsonl').map((r) => [r.input.email, r.expected_output]));
const intents = new Map(readRows('intents.jsonl').map((r) => [r.input.message, r.expected_output]));
// Two deliberate mistakes, so the sample report shows failures as well as passes.
intents.set('When will my order ship?', 'shipping');
intents.set('Can I delete my account?', 'Account deletion');
const variantIntents = new Map([
  ['When will my order ship?', 'shipping'],
  ['Can I delete my account?', 'account'],
  ['Please refund order A-1042.', 'shipping'],
  ['Is the jacket waterproof?', 'other'],
]);

const text = (m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''));

function answer(body) {
  const messages = body.messages ?? [];
  const system = text(messages.find((m) => m.role === 'system') ?? {});
  const user = text([...messages].reverse().find((m) => m.role === 'user') ?? {});
  if (system.includes('impartial evaluator')) {
    const curt = user.includes('Fine. We will look into it.');
    return json({
      reasoning: curt
        ? 'The reply is short and gives no empathy or detail; it reads as curt.'
        : 'The reply apologises, addresses the problem directly and explains the next step in a calm, courteous register.',
      label: curt ? 'curt' : 'professional',
    });
  }
  // The support chat (prompts/support-chat) and its simulated customer (examples/customer).
  if (system.includes('You are a customer of Acme')) return reply(customerLine(system, messages));
  if (system.includes("You are Acme's support assistant")) return reply(supportChatReply(user));
  if (system.includes('Extract the order details')) {
    const expected = emails.get(user) ?? { order_id: 'unknown', product: 'unknown', issue_type: 'other', refund_requested: false };
    // The sample "model" misreads one product name.
    return json(user.startsWith('Order M-1293') ? { ...expected, product: 'book' } : expected);
  }
  // The variant prompt (classify-intent-v2) "fixes" the two mistakes above and makes two new
  // ones, so comparing the two prompts' runs shows improved and regressed rows.
  if (system.includes('by what they want done')) return reply(variantIntents.get(user) ?? intents.get(user) ?? 'other');
  if (system.includes('Classify')) return reply(intents.get(user) ?? 'other');
  if (system.includes('questions about orders')) return orderAgent(messages, user);
  // The support agent's two steps (examples/support-agent.ts): look the order up, then reply.
  if (system.includes('Find the order')) return toolCall('lookup_order', { order_id: /A-\d{4}/.exec(user)?.[0] ?? 'A-0000' });
  if (system.includes('from the order record')) return reply(supportAgentReply(user));
  return reply(supportReply(system, user));
}

// What each simulated customer says, by goal; the simulator's own earlier turns are its
// `assistant` messages (it sees the chat with the roles swapped), so they say which line is next.
const customerScripts = {
  'get a refund for a broken mug': ['Hi, my order A-1042 arrived with the mug cracked. Can I get a refund?', 'Great, thank you!'],
  // Starts from the row's given turns: its first line is the row's own "Hi, I moved last week."
  'change the delivery address': ['Hi, I moved last week.', 'Please send order A-1077 to 12 Harbour Street instead.'],
  // Never satisfied: the chat runs to max_turns (4), on purpose.
  'get a discount on a future order': ['Can I get a discount on my next order?', 'Come on, just 10%?', 'What about 5%?', 'Please? I am a loyal customer.', 'Really?'],
};

function customerLine(system, messages) {
  const goal = /Your goal: (.+?)\.\n/.exec(`${system}\n`)?.[1] ?? '';
  const said = messages.filter((m) => m.role === 'assistant').length;
  return (customerScripts[goal] ?? [])[said] ?? '###STOP###';
}

function supportChatReply(user) {
  if (/refund/i.test(user)) return 'I am sorry about the mug. I have started a refund for order A-1042; you will get an email within a day.';
  if (/address|Harbour/i.test(user)) return 'Done: order A-1077 will now go to 12 Harbour Street. You will get a new tracking email today.';
  if (/discount|10%|5%/i.test(user)) return 'I am sorry, we cannot offer a discount on request. We will email you when there is a sale.';
  if (/thank/i.test(user)) return 'You are welcome! We will email you when the refund is done.';
  return 'I understand. We will let you know about future offers.';
}

function orderAgent(messages, question) {
  const id = /A-\d{4}/.exec(question)?.[0] ?? 'A-0000';
  const toolMessages = messages.filter((m) => m.role === 'tool');
  const wantsCancel = /cancel/i.test(question);
  if (toolMessages.length === 0) return toolCall('lookup_order', { order_id: id });
  if (wantsCancel && toolMessages.length === 1) return toolCall('cancel_order', { order_id: id });
  const status = JSON.parse(text(toolMessages[0]) || '{}');
  if (wantsCancel) return reply(`Order ${id} has been cancelled. You will not be charged.`);
  const eta = status.eta ? `, expected on ${status.eta}` : '';
  return reply(`Order ${id} is ${status.status ?? 'unknown'}${eta}.`);
}

function supportAgentReply(user) {
  const id = /A-\d{4}/.exec(user)?.[0] ?? 'your order';
  const record = JSON.parse(/Order record: (.*)/.exec(user)?.[1] ?? '{}');
  const eta = record.eta ? ` We will email you before it arrives on ${record.eta}.` : ' We will email you as soon as it changes.';
  return `Order ${id} is ${record.status ?? 'not found'}.${eta}`;
}

function supportReply(system, user) {
  const name = /Customer: (\S+)/.exec(user)?.[1] ?? 'there';
  const subject = /Subject: (.+)/.exec(user)?.[1] ?? 'your request';
  if (subject === 'Rude courier') return 'Fine. We will look into it.';
  const formal = system.includes('formal register');
  const opening = formal ? `Dear ${name}, thank you for contacting Acme support.` : `Hi ${name}, thanks for reaching out.`;
  return (
    `${opening} I am sorry to hear about the issue with "${subject.toLowerCase()}". ` +
    'I have logged it on your account and passed the details to our fulfilment team, who handle cases like this every day. ' +
    'We will email you within one business day with the next step, and if anything is needed from you we will say exactly what. ' +
    (formal ? 'Kind regards, Acme Support.' : 'Talk soon, the Acme team.')
  );
}

const usage = (body, out) => {
  const prompt = JSON.stringify(body.messages ?? []).length >> 2;
  const completion = out.length >> 2;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
};
const reply = (content) => ({ message: { role: 'assistant', content }, finish_reason: 'stop' });
const json = (object) => reply(JSON.stringify(object));
let callId = 0;
const toolCall = (name, args) => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${++callId}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  },
  finish_reason: 'tool_calls',
});

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const body = JSON.parse(raw);
    const choice = answer(body);
    const out = JSON.stringify(choice.message);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: `chatcmpl-sample-${callId}`,
        object: 'chat.completion',
        created: 1764460800,
        model: body.model,
        choices: [{ index: 0, ...choice }],
        usage: usage(body, out),
      }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address();
const live = fileURLToPath(new URL('../.agentmark/cache', import.meta.url));
const aside = `${live}.before-recording`;
const replay = fileURLToPath(new URL('responses', import.meta.url));
// Record into an empty live cache, so the replay folder gets exactly this run's answers.
if (existsSync(live)) {
  rmSync(aside, { recursive: true, force: true });
  renameSync(live, aside);
}
let code;
try {
  // spawn, not spawnSync: this process's server must keep answering while the CLI runs.
  const child = spawn(
    process.execPath,
    ['dist/bundle/agentmark.cjs', 'run-experiment', 'prompts', '--no-cache', '--quiet', '--format', 'jsonl', '--output', '/dev/null', '--concurrency', '1'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: 'sample' } },
  );
  code = await new Promise((r) => child.on('close', r));
  server.close();
  const segments = (dir) => readdirSync(dir).filter((name) => /^[0-9a-f]\.jsonl$/.test(name));
  for (const name of segments(replay)) rmSync(`${replay}/${name}`);
  // Lines sorted by key (the key leads each line): a rerecording diffs only where answers changed.
  for (const name of segments(live)) {
    const lines = readFileSync(`${live}/${name}`, 'utf8').split('\n').filter(Boolean).sort();
    writeFileSync(`${replay}/${name}`, `${lines.join('\n')}\n`);
  }
} finally {
  rmSync(live, { recursive: true, force: true });
  if (existsSync(aside)) renameSync(aside, live);
}
console.log(`recorded sample responses into examples/responses (run exit code ${code})`);
