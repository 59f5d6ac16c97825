import { evalName } from '../project-builder.js';
import { type Grader, type GraderContext, str } from './context.js';
import { FUZZY_RATIO_HELPER } from './fuzzy-helper.js';
import { isOperation, operationJs } from './string-check.js';
import { templateToJs } from './templates.js';

const FUNCTIONS = new Set(['min', 'max', 'abs', 'floor', 'ceil', 'exp', 'sqrt', 'log']);

/**
 * calculate_output as JavaScript: numbers, the sub-graders' names, + - * / ^ (power), parentheses,
 * commas and the math functions OpenAI lists. Anything else is refused (returned as a reason),
 * so nothing but arithmetic reaches the config file.
 */
export function formulaJs(formula: string, names: ReadonlySet<string>): { js: string } | { error: string } {
  const out: string[] = [];
  const token = /\s*(\d+(?:\.\d+)?|[A-Za-z_]\w*|\*\*|[-+*/^(),])/y;
  let at = 0;
  while (at < formula.length) {
    if (/^\s*$/.test(formula.slice(at))) break;
    token.lastIndex = at;
    const match = token.exec(formula);
    const text = match?.[1];
    if (match === null || text === undefined) return { error: `cannot read "${formula.slice(at).trim()}"` };
    at = token.lastIndex;
    if (/^[A-Za-z_]/.test(text)) {
      if (names.has(text)) out.push(`g[${JSON.stringify(text)}]`);
      else if (FUNCTIONS.has(text)) out.push(`Math.${text}`);
      else return { error: `"${text}" is neither a sub-grader (${[...names].join(', ')}) nor a function (${[...FUNCTIONS].join(', ')})` };
    } else out.push(text === '^' ? '**' : text);
  }
  return out.length === 0 ? { error: 'the formula is empty' } : { js: out.join(' ') };
}

/** A sub-grader's score (0..1) as JavaScript, for the kinds a config scorer can compute itself. */
function subGraderJs(grader: Grader): string | undefined {
  const input = templateToJs(str(grader['input']) ?? '');
  const reference = templateToJs(str(grader['reference']) ?? '');
  if (input === undefined || reference === undefined || str(grader['input']) === undefined || str(grader['reference']) === undefined) return undefined;
  if (grader['type'] === 'string_check' && isOperation(grader['operation'])) {
    return `((got: string, want: string) => (${operationJs(grader['operation'])} ? 1 : 0))(${input}, ${reference})`;
  }
  if (grader['type'] === 'text_similarity' && grader['evaluation_metric'] === 'fuzzy_match') return `fuzzyRatio(${input}, ${reference})`;
  return undefined;
}

/** multi → one config scorer computing each sub-grader and then the formula. */
export function importMulti(grader: Grader, path: Array<string | number>, ctx: GraderContext): string | undefined {
  const from = ctx.doc.ref(path);
  const label = `multi "${str(grader['name']) ?? ''}"`;
  const verbatim = JSON.stringify(grader, null, 2);
  const graders = grader['graders'];
  const formula = str(grader['calculate_output']);
  if (graders === null || typeof graders !== 'object' || Array.isArray(graders) || formula === undefined) {
    ctx.result.leftOut.push({ what: label, from, why: 'needs graders (an object of named graders) and calculate_output', verbatim });
    return undefined;
  }
  const lines: string[] = [];
  for (const [key, sub] of Object.entries(graders as Record<string, Grader>)) {
    const js = subGraderJs(sub ?? {});
    if (js === undefined) {
      ctx.result.leftOut.push({
        what: label,
        from: ctx.doc.ref([...path, 'graders', key]),
        why: `sub-grader "${key}" (${String(sub?.['type'])}${sub?.['evaluation_metric'] ? ` ${String(sub['evaluation_metric'])}` : ''}) cannot be computed in a config scorer; only string_check and fuzzy_match sub-graders are`,
        verbatim,
      });
      return undefined;
    }
    if (js.includes('fuzzyRatio(')) ctx.builder.addHelper('fuzzyRatio', FUZZY_RATIO_HELPER);
    lines.push(`  g[${JSON.stringify(key)}] = ${js};`);
  }
  const compiled = formulaJs(formula, new Set(Object.keys(graders)));
  if ('error' in compiled) {
    ctx.result.leftOut.push({ what: label, from: ctx.doc.ref([...path, 'calculate_output']), why: `calculate_output: ${compiled.error}`, verbatim });
    return undefined;
  }
  const threshold = typeof grader['pass_threshold'] === 'number' ? grader['pass_threshold'] : undefined;
  const source = [
    '({ input, output }) => {',
    '  const g: Record<string, number> = {};',
    ...lines,
    `  const score = ${compiled.js};`,
    `  const parts = Object.entries(g).map(([k, v]) => \`\${k} \${v.toFixed(3)}\`).join(', ');`,
    `  return { score${threshold === undefined ? '' : `, passed: score >= ${threshold}`}, reason: \`${formula.replace(/[`$\\]/g, '\\$&')} = \${score.toFixed(3)} (\${parts})\` };`,
    '}',
  ].join('\n');
  const name = evalName(str(grader['name']) ?? '', 'multi');
  const used = ctx.builder.addConfigScorer(name, { type: 'numeric', description: `OpenAI Evals multi: ${formula}` }, source, `OpenAI Evals multi grader, from ${from.file}${from.line ? `:${from.line}` : ''}`);
  ctx.result.imported.push({ what: label, from, to: `eval ${used} (scorer in agentmark.config.ts)` });
  return used;
}
