import type { JSONSchema7 } from '../../prompt/json-schema.js';
import type { ChatMessage } from '../../prompt/types.js';
import { compileSchema, formatAjvErrors } from '../ajv.js';
import type { JudgeFn } from '../types.js';

export interface JudgeCall {
  judge: JudgeFn;
  modelName: string;
  messages: ChatMessage[];
  schema: JSONSchema7;
}

function checkAnswer(output: unknown, validate: (value: unknown) => boolean, errors: () => string[]): { answer?: Record<string, unknown>; problem?: string } {
  let value = output;
  // A judge wired to a text model may hand back the JSON as text.
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return { problem: 'the answer is not JSON' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'the answer is not a JSON object' };
  if (!validate(value)) return { problem: errors().join('; ') };
  return { answer: value as Record<string, unknown> };
}

/**
 * Asks the judge and checks its answer against the schema. A malformed answer is asked once
 * more, with the problem appended as a user message: that both tells the model what went wrong
 * and changes the request, so a response cache cannot hand back the same bad answer.
 */
export async function askJudge(call: JudgeCall): Promise<Record<string, unknown>> {
  const validate = await compileSchema(call.schema);
  const errors = (): string[] => formatAjvErrors(validate.errors);
  let messages = call.messages;
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await call.judge({
      modelName: call.modelName,
      kind: 'object',
      messages,
      settings: { temperature: 0 },
      schema: call.schema,
      schemaName: 'judgement',
    });
    const checked = checkAnswer(response.output, (value) => validate(value), errors);
    if (checked.answer) return checked.answer;
    problem = checked.problem ?? 'invalid answer';
    messages = [
      ...call.messages,
      { role: 'user', content: `Your previous answer did not match the required JSON schema (${problem}). Answer again with only the required fields.` },
    ];
  }
  throw new Error(`judge answer did not match the schema after a retry: ${problem}`);
}
