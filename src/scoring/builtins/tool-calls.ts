import type { BuiltinScorer, EvalParams } from '../types.js';
import { defineScorer } from './define-scorer.js';

export interface ToolCallsOptions {
  /** Tools that must be called. Overridden per row by metadata.expected_tools. @default [] */
  expected?: string[];
  /** Tools that must not be called. Overridden per row by metadata.forbidden_tools. @default [] */
  forbidden?: string[];
  /** Fail when a tool outside `expected` is called. @default false */
  strict?: boolean;
  /** Expected tools must first be called in the order listed (other calls may come between). @default false */
  ordered?: boolean;
}

const names = { type: 'array', items: { type: 'string' } };

function rowList(metadata: EvalParams['metadata'], key: string, fallback: string[] | undefined): string[] {
  const value = metadata[key];
  if (value === undefined) return fallback ?? [];
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) {
    throw new Error(`metadata.${key} must be an array of tool names`);
  }
  return value;
}

/** Whether `wanted` appears in `calls` as a subsequence, judged by each tool's first call. */
function inOrder(calls: string[], wanted: string[]): boolean {
  let position = -1;
  for (const name of wanted) {
    const next = calls.indexOf(name, position + 1);
    if (next === -1) return false;
    position = next;
  }
  return true;
}

export const toolCalls = defineScorer<ToolCallsOptions>({
  name: 'tool_calls',
  description: 'Checks which tools an agent called: expected, forbidden, extra and order.',
  options: {
    type: 'object',
    properties: { expected: names, forbidden: names, strict: { type: 'boolean' }, ordered: { type: 'boolean' } },
    additionalProperties: false,
  },
  create: (options) => (params) => {
    const expected = rowList(params.metadata, 'expected_tools', options.expected);
    const forbidden = rowList(params.metadata, 'forbidden_tools', options.forbidden);
    const calls = params.toolCalls.map((call) => call.name);
    const called = new Set(calls);
    const missing = expected.filter((name) => !called.has(name));
    const forbiddenCalled = forbidden.filter((name) => called.has(name));
    const expectedSet = new Set(expected);
    const extra = options.strict ? [...called].filter((name) => !expectedSet.has(name) && !forbidden.includes(name)) : [];
    const outOfOrder = options.ordered === true && missing.length === 0 && !inOrder(calls, expected);

    const problems: string[] = [];
    if (missing.length) problems.push(`missing: ${missing.join(', ')}`);
    if (forbiddenCalled.length) problems.push(`forbidden called: ${forbiddenCalled.join(', ')}`);
    if (extra.length) problems.push(`extra: ${extra.join(', ')}`);
    if (outOfOrder) problems.push(`out of order: expected ${expected.join(' → ')}, got ${calls.join(' → ')}`);

    const passed = problems.length === 0;
    // Score = fraction of checks that hold: one per expected tool, one per forbidden tool, and
    // one each for strictness and order when asked; a FAIL therefore never scores 1.
    const checks = expected.length + forbidden.length + (options.strict ? 1 : 0) + (options.ordered ? 1 : 0);
    const failed = missing.length + forbiddenCalled.length + (extra.length ? 1 : 0) + (outOfOrder ? 1 : 0);
    const score = checks === 0 ? 1 : (checks - failed) / checks;
    const calledText = calls.length ? `called ${calls.join(', ')}` : 'no tools called';
    return { passed, score, reason: passed ? calledText : `${calledText}; ${problems.join('; ')}` };
  },
});

export const agentScorers: BuiltinScorer[] = [toolCalls];
