import type { Tool } from 'ai';
import { EvalBindingError } from '../../errors/index.js';
import type { JSONSchema7 } from '../../prompt/json-schema.js';
import { compileSchema, formatAjvErrors } from '../ajv.js';
import type { BuiltinScorer, EvalResult } from '../types.js';
import type { ToolCallRecord } from '../../model/types.js';
import { defineScorer } from './define-scorer.js';

export interface ValidToolCallsOptions {
  /** JSON Schema of each tool's arguments, by tool name, over the registered tools' own. @default {} */
  tools?: Record<string, JSONSchema7>;
  /** A row whose answer made no tool call passes. @default false (promptfoo's is-valid-openai-tools-call fails it) */
  allowNone?: boolean;
}

type Check = (args: unknown) => string[];

/**
 * promptfoo's `is-valid-openai-tools-call`: every tool call of the answer names a tool the prompt
 * offers and its arguments match that tool's schema. The schemas are the registered tools' own
 * (`inputSchema`, zod or JSON Schema, through the AI SDK's `asSchema`) or the option's, compiled
 * once when the eval is bound. Score: the share of calls that are valid.
 */
export const isValidToolsCall = defineScorer<ValidToolCallsOptions>({
  name: 'is_valid_tools_call',
  description: "Passes when every tool call names a known tool and its arguments match the tool's schema.",
  options: {
    type: 'object',
    properties: {
      tools: { type: 'object', additionalProperties: { type: 'object' }, description: 'JSON Schema of the arguments by tool name; defaults to the registered tools\' inputSchema.' },
      allowNone: { type: 'boolean', description: 'Pass a row that made no tool call.' },
    },
    additionalProperties: false,
  },
  create: async (options, ctx) => {
    const offered = ctx.promptTools ?? Object.keys(ctx.tools ?? {});
    const names = [...new Set([...offered, ...Object.keys(options.tools ?? {})])];
    const checks = new Map<string, Check>();
    for (const name of names) {
      const schema = options.tools?.[name] ?? (await toolSchema(ctx.tools?.[name]));
      if (schema === undefined) continue;
      try {
        const validate = await compileSchema(withoutDialect(schema));
        checks.set(name, (args) => (validate(args) ? [] : formatAjvErrors(validate.errors)));
      } catch (error) {
        const where = options.tools?.[name] === undefined ? `the registered tool "${name}"` : `options.tools.${name}`;
        throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": the JSON Schema of ${where} does not compile: ${error instanceof Error ? error.message : String(error)}`, {
          location: ctx.locateOption ? await ctx.locateOption('tools') : { file: ctx.promptPath },
        });
      }
    }
    if (names.length === 0) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${ctx.evalName}": is_valid_tools_call has no tools to check calls against`, {
        location: { file: ctx.promptPath },
        hint: 'list the tools in text_config.tools (registered in agentmark.config.ts), or give their schemas in options.tools',
      });
    }
    return (params) => judgeCalls(params.toolCalls, names, checks, options.allowNone ?? false);
  },
});

function judgeCalls(calls: readonly ToolCallRecord[], names: readonly string[], checks: ReadonlyMap<string, Check>, allowNone: boolean): EvalResult {
  if (calls.length === 0) {
    return allowNone ? { passed: true, score: 1, reason: 'no tool calls (allowNone)' } : { passed: false, score: 0, reason: 'the answer made no tool call' };
  }
  const problems: string[] = [];
  for (const call of calls) {
    if (!names.includes(call.name)) {
      problems.push(`${call.name}: not a tool of this prompt (tools: ${names.join(', ')})`);
      continue;
    }
    const args = parsedArgs(call.args);
    if (typeof args === 'string') {
      problems.push(`${call.name}: ${args}`);
      continue;
    }
    const violations = checks.get(call.name)?.(args.value) ?? [];
    if (violations.length > 0) problems.push(`${call.name}: ${violations.join('; ')}`);
  }
  const valid = calls.length - problems.length;
  const score = valid / calls.length;
  const count = `${calls.length} tool call${calls.length === 1 ? '' : 's'}`;
  if (problems.length === 0) return { passed: true, score, reason: `${count}, all valid: ${calls.map((c) => c.name).join(', ')}` };
  return { passed: false, score, reason: `${problems.length} of ${count} invalid: ${problems.join(' | ')}` };
}

/** Arguments as the model sent them: an object, or JSON text of one. */
function parsedArgs(args: unknown): { value: unknown } | string {
  if (typeof args !== 'string') return { value: args ?? {} };
  try {
    return { value: JSON.parse(args) as unknown };
  } catch {
    return `arguments are not valid JSON: ${JSON.stringify(args.slice(0, 80))}`;
  }
}

/** A registered tool's argument schema as JSON Schema (zod through the AI SDK's asSchema), when it has one. */
async function toolSchema(tool: Tool | undefined): Promise<JSONSchema7 | undefined> {
  if (tool?.inputSchema === undefined) return undefined;
  const { asSchema } = await import('ai');
  return (await asSchema(tool.inputSchema).jsonSchema) as JSONSchema7;
}

/** zod's JSON Schema names draft 2020-12, which our draft-07 Ajv refuses; the keywords a tool uses read the same in both. */
function withoutDialect(schema: JSONSchema7): JSONSchema7 {
  const { $schema: _dialect, ...rest } = schema as JSONSchema7 & { $schema?: string };
  return rest;
}

export const toolCallScorers: BuiltinScorer[] = [isValidToolsCall];
