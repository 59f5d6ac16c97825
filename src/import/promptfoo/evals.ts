import { canonicalJson } from '../../canonical-json.js';
import { evalName, type RowEval, type ScoreSpec } from '../project-builder.js';
import type { SourceRef } from '../types.js';
import { type PromptfooContext, str } from './context.js';
import { mapAssertion, type MappedAssert } from './asserts.js';
import type { Assertion } from './csv-asserts.js';
import { HELPERS, javascriptScorer } from './javascript.js';

/**
 * Turns assertions into evals: the prompt's (defaultTest, options in the score schema) and the
 * rows' (per-test asserts, options on the row eval, so one score schema serves every test).
 */
export class EvalRegistry {
  private readonly configNames = new Map<string, string>();
  private readonly rowSchemas = new Map<string, string>();
  /** The prompt's eval names: a row eval of the same name would replace it on that row. */
  readonly promptEvals: string[] = [];
  private javascriptCount = 0;

  constructor(
    private readonly ctx: PromptfooContext,
    /** Tool argument schemas from the providers, given to is_valid_tools_call. */
    private readonly toolSchemas: Record<string, unknown> = {},
  ) {}

  private map(assert: Assertion, from: SourceRef): Exclude<MappedAssert, { kind: 'left-out' }> | undefined {
    const type = str(assert.type) ?? '';
    // is-json of JSON.parse(output) means what is-json of the output means: that transform changes nothing.
    const parseOnly = (type === 'is-json' || type === 'contains-json') && /^\s*JSON\.parse\(output\);?\s*$/.test(str(assert['transform']) ?? '');
    const transform = parseOnly ? undefined : str(assert['transform']);
    const threshold = typeof assert['threshold'] === 'number' ? assert['threshold'] : undefined;
    const mapped: MappedAssert =
      type === 'javascript' && typeof assert['value'] === 'string' && !assert['value'].startsWith('file://')
        ? { kind: 'config', base: 'javascript', spec: { type: 'boolean', description: 'promptfoo javascript assertion' }, source: javascriptScorer(assert['value'], threshold, transform), helper: 'promptfooResult' }
        : transform !== undefined
          ? { kind: 'left-out', why: `it checks the output after a transform (${transform.trim()}), which only javascript assertions carry over` }
          : mapAssertion(assert);
    if (mapped.kind === 'builtin' && mapped.base === 'is_valid_tools_call' && Object.keys(this.toolSchemas).length > 0) mapped.options = { tools: this.toolSchemas };
    if (mapped.kind === 'left-out') {
      this.ctx.result.leftOut.push({ what: `assertion ${type || '(no type)'}`, from, why: mapped.why, verbatim: JSON.stringify(assert, null, 2) });
      return undefined;
    }
    return mapped;
  }

  private configScorer(mapped: Extract<MappedAssert, { kind: 'config' }>, base: string, from: SourceRef): string {
    const known = this.configNames.get(mapped.source);
    if (known !== undefined) return known;
    if (mapped.helper !== undefined) this.ctx.builder.addHelper(mapped.helper, HELPERS[mapped.helper]);
    const name = base === 'javascript' ? `javascript_${(this.javascriptCount += 1)}` : base;
    const used = this.ctx.builder.addConfigScorer(name, mapped.spec, mapped.source, `promptfoo assertion from ${from.file}${from.line === undefined ? '' : `:${from.line}`}`);
    this.configNames.set(mapped.source, used);
    return used;
  }

  /** A defaultTest assertion → an eval of every prompt; its options live in the score schema. */
  promptEval(assert: Assertion, from: SourceRef): string | undefined {
    const mapped = this.map(assert, from);
    if (mapped === undefined) return undefined;
    const base = evalName(str(assert['metric']) ?? mapped.base, mapped.base);
    const name =
      mapped.kind === 'config'
        ? this.configScorer(mapped, base, from)
        : this.ctx.builder.addScore(base, { ...mapped.spec, ...(Object.keys(mapped.options).length > 0 ? { options: mapped.options } : {}) });
    if (!this.promptEvals.includes(name)) this.promptEvals.push(name);
    this.ctx.result.imported.push({ what: `defaultTest assertion ${String(assert.type)}`, from, to: `eval ${name} of every prompt` });
    return name;
  }

  /**
   * A test's assertion → a row eval. Its score schema has no options (the row gives them), under a
   * name no prompt eval and no other eval of this row uses.
   */
  rowEval(assert: Assertion, from: SourceRef, taken: Set<string>, row: Record<string, unknown>): RowEval | undefined {
    const mapped = this.map(assert, from);
    if (mapped === undefined) return undefined;
    if (mapped.kind === 'builtin' && mapped.expectedOutput !== undefined) {
      // factuality and context-recall read their reference from the row's expected_output: one per row.
      if (row['expected_output'] !== undefined && row['expected_output'] !== mapped.expectedOutput) {
        this.ctx.result.leftOut.push({ what: `assertion ${String(assert.type)}`, from, why: `its reference differs from another judge's on the same test (a row has one expected_output: "${String(row['expected_output'])}")`, verbatim: JSON.stringify(assert, null, 2) });
        return undefined;
      }
      row['expected_output'] = mapped.expectedOutput;
    }
    const weight = typeof assert['weight'] === 'number' ? assert['weight'] : undefined;
    if (mapped.kind === 'config') {
      const name = this.configScorer(mapped, evalName(str(assert['metric']) ?? mapped.base, mapped.base), from);
      taken.add(name);
      return weight === undefined ? name : { name, weight };
    }
    const base = evalName(str(assert['metric']) ?? mapped.base, mapped.base);
    const spec: ScoreSpec = mapped.spec;
    for (let k = 1; ; k += 1) {
      const candidate = k === 1 ? base : `${base}_${k}`;
      if (taken.has(candidate) || this.promptEvals.includes(candidate)) continue;
      const existing = this.rowSchemas.get(candidate);
      if (existing !== undefined && existing !== canonicalJson(spec)) continue;
      if (existing === undefined) {
        if (this.ctx.builder.hasScore(candidate)) continue;
        this.ctx.builder.addScore(candidate, spec);
        this.rowSchemas.set(candidate, canonicalJson(spec));
      }
      taken.add(candidate);
      const options = Object.keys(mapped.options).length > 0 ? { options: mapped.options } : {};
      return weight === undefined && Object.keys(options).length === 0 ? candidate : { name: candidate, ...options, ...(weight === undefined ? {} : { weight }) };
    }
  }
}
