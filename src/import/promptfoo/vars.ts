import { parseLocated } from '../source-map.js';
import type { SourceRef } from '../types.js';
import { type PromptfooContext, fileRef } from './context.js';

/**
 * A test's vars with `file://` values inlined: JSON and YAML files parsed, other files as text.
 * Code files (.js, .py) and globs are reported and the var is left out.
 */
export async function inlineVars(vars: Record<string, unknown>, from: SourceRef, ctx: PromptfooContext): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(vars)) {
    const file = fileRef(value);
    if (file === undefined) {
      out[name] = value;
      continue;
    }
    if (/[*?]/.test(file) || /\.(m?[jt]s|cjs|py)(:|$)/.test(file)) {
      ctx.result.leftOut.push({ what: `var ${name} (${String(value)})`, from, why: 'vars made by code or globs are not imported: inline the value' });
      continue;
    }
    const text = await ctx.read(file);
    if (text === undefined) {
      ctx.result.leftOut.push({ what: `var ${name}`, from, why: `file not found: ${ctx.shown(file)}` });
      continue;
    }
    if (/\.(json|ya?ml)$/.test(file)) {
      try {
        out[name] = (await parseLocated(text, file)).value;
      } catch (error) {
        ctx.result.leftOut.push({ what: `var ${name}`, from, why: `${ctx.shown(file)} is not JSON/YAML: ${error instanceof Error ? error.message : String(error)}` });
      }
    } else out[name] = text;
  }
  return out;
}

/**
 * promptfoo runs a test once per combination of its vars that are lists of strings; a list of
 * anything else (chat history objects) is one value, as is every list with `disableVarExpansion`.
 */
export function expandArrays(vars: Record<string, unknown>, disabled = false): Array<Record<string, unknown>> {
  let combos: Array<Record<string, unknown>> = [{}];
  for (const [name, value] of Object.entries(vars)) {
    const values = Array.isArray(value) && !disabled && typeof value[0] === 'string' ? value : [value];
    combos = combos.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
  }
  return combos;
}

/** `{{ var }}` / `{{ var.path }}` in an assertion's value, filled from the test's vars (as promptfoo does). */
export function fillTemplate(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}/g, (whole, path: string) => {
      let v: unknown = vars;
      for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      return v === undefined ? whole : typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => fillTemplate(v, vars));
  return value;
}

export const hasTemplate = (value: unknown): boolean => JSON.stringify(value ?? null).includes('{{');
