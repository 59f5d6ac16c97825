import { evalName } from '../project-builder.js';
import { type Grader, type GraderContext, str } from './context.js';
import { isLiteral, isSampleOutput, soleItemField, templateToJs } from './templates.js';

const OPERATIONS = ['eq', 'ne', 'like', 'ilike'] as const;
type Operation = (typeof OPERATIONS)[number];

/** The comparison as JavaScript over `got` (the input) and `want` (the reference). */
export function operationJs(operation: Operation): string {
  switch (operation) {
    case 'eq':
      return 'got === want';
    case 'ne':
      return 'got !== want';
    case 'like':
      return 'got.includes(want)';
    case 'ilike':
      return 'got.toLowerCase().includes(want.toLowerCase())';
  }
}

export function isOperation(value: unknown): value is Operation {
  return typeof value === 'string' && (OPERATIONS as readonly string[]).includes(value);
}

/**
 * string_check → a built-in where one does the same (`eq` exact_match without trimming, `like`
 * contains, `ilike` icontains), else a config scorer comparing the two templates.
 */
export function importStringCheck(grader: Grader, path: Array<string | number>, ctx: GraderContext): string | undefined {
  const from = ctx.doc.ref(path);
  const input = str(grader['input']);
  const reference = str(grader['reference']);
  const operation = grader['operation'];
  const label = `string_check "${str(grader['name']) ?? ''}"`;
  if (input === undefined || reference === undefined || !isOperation(operation)) {
    ctx.result.leftOut.push({ what: label, from, why: 'needs input and reference (strings) and operation eq, ne, like or ilike', verbatim: JSON.stringify(grader, null, 2) });
    return undefined;
  }
  const name = evalName(str(grader['name']) ?? '', 'string_check');
  const description = `OpenAI Evals string_check: ${input} ${operation} ${reference}`;
  const expected = soleItemField(reference) !== undefined && soleItemField(reference) === ctx.expectedField;
  const literal = isLiteral(reference);
  if (isSampleOutput(input) && operation !== 'ne' && (expected || literal)) {
    const value = literal ? { value: reference } : {};
    const bound =
      operation === 'eq'
        ? literal
          ? { scorer: 'one_of', options: { values: [reference], trim: false } }
          : { scorer: 'exact_match', options: { trim: false } }
        : { scorer: operation === 'ilike' ? 'icontains' : 'contains', options: value };
    const used = ctx.builder.addScore(name, { type: 'boolean', description, ...bound });
    ctx.result.imported.push({ what: label, from, to: `eval ${used} (${bound.scorer})` });
    return used;
  }
  const got = templateToJs(input);
  const want = templateToJs(reference);
  if (got === undefined || want === undefined) {
    ctx.result.leftOut.push({ what: label, from, why: 'its templates use a namespace other than item.* and sample.output_text', verbatim: JSON.stringify(grader, null, 2) });
    return undefined;
  }
  const source = [
    '({ input, output }) => {',
    `  const got = ${got};`,
    `  const want = ${want};`,
    `  const passed = ${operationJs(operation)};`,
    `  return { passed, reason: \`\${JSON.stringify(got)} ${operation} \${JSON.stringify(want)}: \${passed ? 'yes' : 'no'}\` };`,
    '}',
  ].join('\n');
  const used = ctx.builder.addConfigScorer(name, { type: 'boolean', description }, source, `OpenAI Evals string_check (${operation}), from ${from.file}${from.line ? `:${from.line}` : ''}`);
  ctx.result.imported.push({ what: label, from, to: `eval ${used} (scorer in agentmark.config.ts)` });
  return used;
}
