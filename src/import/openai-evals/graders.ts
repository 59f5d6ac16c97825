import { type Grader, type GraderContext, str } from './context.js';
import { importModelGrader } from './model-graders.js';
import { importMulti } from './multi.js';
import { importStringCheck } from './string-check.js';
import { importTextSimilarity } from './text-similarity.js';
import { soleItemField } from './templates.js';

export const GRADER_TYPES = ['string_check', 'text_similarity', 'label_model', 'score_model', 'multi', 'python'];

/** One testing criterion → an eval name, or undefined when it was left out (and reported). */
export function importGrader(grader: unknown, path: Array<string | number>, ctx: GraderContext): string | undefined {
  const from = ctx.doc.ref(path);
  if (grader === null || typeof grader !== 'object' || Array.isArray(grader)) {
    ctx.result.leftOut.push({ what: `testing_criteria[${String(path[path.length - 1])}]`, from, why: 'not an object' });
    return undefined;
  }
  const g = grader as Grader;
  switch (g['type']) {
    case 'string_check':
      return importStringCheck(g, path, ctx);
    case 'text_similarity':
      return importTextSimilarity(g, path, ctx);
    case 'label_model':
    case 'score_model':
      return importModelGrader(g, path, ctx);
    case 'multi':
      return importMulti(g, path, ctx);
    case 'python':
      ctx.result.leftOut.push({
        what: `python "${str(g['name']) ?? ''}"`,
        from,
        why: 'python graders are not run; port it to a scorer in agentmark.config.ts (its source is kept in IMPORT.md)',
        verbatim: str(g['source']) ?? JSON.stringify(g, null, 2),
      });
      return undefined;
    default:
      ctx.result.leftOut.push({
        what: `grader "${str(g['name']) ?? ''}"`,
        from,
        why: `unknown grader type ${JSON.stringify(g['type'])} (known: ${GRADER_TYPES.join(', ')})`,
        verbatim: JSON.stringify(g, null, 2),
      });
      return undefined;
  }
}

/**
 * The item field most graders compare against (`reference: "{{item.ideal}}"`): it becomes each
 * row's expected_output, so the built-ins that read the expected output can be used.
 */
export function mostReferencedField(criteria: unknown[]): string | undefined {
  const counts = new Map<string, number>();
  const visit = (grader: unknown): void => {
    if (grader === null || typeof grader !== 'object') return;
    const g = grader as Grader;
    const field = typeof g['reference'] === 'string' ? soleItemField(g['reference']) : undefined;
    if (field !== undefined) counts.set(field, (counts.get(field) ?? 0) + 1);
    if (g['type'] === 'multi' && g['graders'] !== null && typeof g['graders'] === 'object') Object.values(g['graders'] as object).forEach(visit);
  };
  criteria.forEach(visit);
  let best: string | undefined;
  for (const [field, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = field;
  return best;
}
