/** Helpers the config scorers made from promptfoo assertions share, written once into the config. */
export const HELPERS = {
  promptfooResult: `/** A promptfoo assertion's answer (boolean, number, or { pass, score, reason }) as a verdict. */
function promptfooResult(result: unknown, threshold?: number): { passed: boolean; reason: string } {
  if (typeof result === 'boolean') return { passed: result, reason: \`returned \${result}\` };
  if (typeof result === 'number') return { passed: threshold === undefined ? result > 0 : result >= threshold, reason: \`returned \${result}\` };
  if (result !== null && typeof result === 'object') {
    const r = result as { pass?: unknown; score?: unknown; reason?: unknown };
    const score = typeof r.score === 'number' ? r.score : undefined;
    const passed = typeof r.pass === 'boolean' ? r.pass : score !== undefined && (threshold === undefined ? score > 0 : score >= threshold);
    return { passed, reason: typeof r.reason === 'string' ? r.reason : \`score \${String(score)}\` };
  }
  return { passed: false, reason: \`returned \${JSON.stringify(result)}\` };
}`,
  levenshteinDistance: `/** Edit distance (insertions, deletions, substitutions), as promptfoo's levenshtein assertion counts. */
function levenshteinDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}`,
  containsJson: `/** promptfoo's contains-json: some {…} or […] in the text parses as JSON. */
function containsJson(output: string): { passed: boolean; reason: string } {
  for (let start = 0; start < output.length; start += 1) {
    const open = output[start];
    if (open !== '{' && open !== '[') continue;
    const close = open === '{' ? '}' : ']';
    for (let end = output.lastIndexOf(close); end > start; end = output.lastIndexOf(close, end - 1)) {
      try {
        JSON.parse(output.slice(start, end + 1));
        return { passed: true, reason: \`JSON found at character \${start}\` };
      } catch {
        // try a shorter span
      }
    }
  }
  return { passed: false, reason: 'no JSON in the output' };
}`,
} as const;

/**
 * An inline `javascript` assertion as a config scorer. promptfoo runs the value as an expression
 * (or, when it has several lines or a `return`, as a function body) with `output` (the text) and
 * `context.vars` (the test's vars, here the row's input). The code is promptfoo's, untyped: hence `any`.
 */
export function javascriptScorer(code: string, threshold: number | undefined, transform?: string): string {
  const asBody = (source: string): string => {
    const body = /\breturn\b/.test(source) || source.trim().includes('\n') ? source.trim() : `return (${source.trim().replace(/;$/, '')});`;
    return body.split('\n').map((line) => `    ${line}`.trimEnd()).join('\n');
  };
  // A transform (the test's options.transform or the assertion's) reshapes the output first, as in promptfoo.
  const shaped = transform === undefined
    ? ['  const shaped: any = text(output);']
    : ['  const shaped: any = await (async (output: string, context: { vars: Record<string, any> }) => {', asBody(transform), '  })(text(output), context);'];
  // As in promptfoo, code that throws (JSON.parse of a non-JSON answer) fails the assertion.
  return [
    'async ({ input, output }) => {',
    '  const context: { vars: Record<string, any> } = { vars: input };',
    '  try {',
    ...[...shaped, '  const result: unknown = await (async (output: any, context: { vars: Record<string, any> }) => {', asBody(code), '  })(shaped, context);'].map((line) => `  ${line}`),
    `    return promptfooResult(result${threshold === undefined ? '' : `, ${threshold}`});`,
    '  } catch (error) {',
    "    return { passed: false, reason: `threw: ${error instanceof Error ? error.message : String(error)}` };",
    '  }',
    '}',
  ].join('\n');
}
