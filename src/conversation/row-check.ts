import { DatasetError } from '../errors/index.js';
import type { DatasetRow } from '../dataset/types.js';
import { compileInputSchema, type InputValidator } from '../prompt/input-validator.js';
import { positionInRow } from './row-position.js';
import type { ConversationSettings, TranscriptMessage } from './types.js';

const ROLES = new Set(['user', 'assistant']);
const MESSAGES_HINT = 'e.g. "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}]';

/**
 * Checks a row's conversation keys when the run starts: `scenario` (the simulator's props,
 * against its `input_schema`; a scenario with no simulator to read it is a mistake) and
 * `messages` (earlier turns, each a user or assistant message with text `content`).
 * `file` is the dataset as shown; `path` the file on disk, read again for a bad row's column.
 */
export async function conversationRowCheck(
  file: string,
  path: string,
  settings: ConversationSettings | undefined,
): Promise<(row: DatasetRow) => DatasetError | undefined> {
  const schema = settings?.simulator?.inputSchema;
  const validateScenario: InputValidator | undefined = schema === undefined ? undefined : await compileInputSchema(schema);
  return (row) => {
    const fail = (pointer: string, code: `DATASET_${string}`, message: string, hint: string): DatasetError => {
      const column = positionInRow(path, row.line, pointer);
      return new DatasetError(code, message, { location: column === undefined ? { file, line: row.line } : { file, line: row.line, column }, hint });
    };
    const { scenario, messages } = row.metadata;
    if (scenario !== undefined) {
      if (settings?.simulator === undefined) {
        return fail('/scenario', 'DATASET_SCENARIO_WITHOUT_SIMULATOR', 'row has a "scenario" but the prompt has no conversation.simulator to play it', 'add test_settings.conversation.simulator: ./my-user.prompt.mdx, or remove "scenario"');
      }
      if (typeof scenario !== 'object' || scenario === null || Array.isArray(scenario)) {
        return fail('/scenario', 'DATASET_BAD_SCENARIO', '"scenario" must be an object: the simulator prompt\'s props', 'e.g. "scenario": {"goal": "get a refund"}');
      }
      const violations = validateScenario?.(scenario as Record<string, unknown>) ?? [];
      if (violations.length > 0) {
        const shown = violations.map((v) => v.replace(/^input/, 'scenario')).join('; ');
        return fail('/scenario', 'DATASET_SCENARIO_SCHEMA', `scenario does not match the simulator's input_schema: ${shown}`, 'fix the row\'s scenario, or the simulator prompt\'s input_schema');
      }
    }
    if (messages !== undefined) {
      if (!Array.isArray(messages)) return fail('/messages', 'DATASET_BAD_MESSAGES', '"messages" must be an array of {role, content} turns', MESSAGES_HINT);
      for (const [index, message] of messages.entries()) {
        const problem = messageProblem(message);
        if (problem !== undefined) return fail(`/messages/${index}${problem.key === undefined ? '' : `/${problem.key}`}`, 'DATASET_BAD_MESSAGES', `messages[${index}]: ${problem.message}`, MESSAGES_HINT);
      }
    }
    return undefined;
  };
}

function messageProblem(message: unknown): { message: string; key?: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { message: 'must be an object {role, content}' };
  const { role, content } = message as Record<string, unknown>;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    return role === undefined ? { message: 'has no "role" (user or assistant)' } : { message: `unknown role ${JSON.stringify(role)} (expected "user" or "assistant")`, key: 'role' };
  }
  if (content === undefined) return { message: 'has no "content"' };
  if (typeof content !== 'string') return { message: '"content" must be a string', key: 'content' };
  return undefined;
}

/** A checked row's given turns (`messages`), or none. */
export function rowMessages(row: DatasetRow): TranscriptMessage[] {
  const messages = row.metadata['messages'];
  return Array.isArray(messages) ? (messages as TranscriptMessage[]).map(({ role, content }) => ({ role, content })) : [];
}

/** Whether a row runs as a conversation: the prompt has a simulator, or the row gives turns. */
export function isConversationRow(row: DatasetRow, settings: ConversationSettings | undefined): boolean {
  return settings?.simulator !== undefined || Array.isArray(row.metadata['messages']);
}
