import { roleTag } from '../mdx-text.js';
import { evalName, type ScoreSpec } from '../project-builder.js';
import { type Grader, type GraderContext, openaiModel, str } from './context.js';
import { contentText, templateToMdx } from './templates.js';

type Role = 'system' | 'user' | 'assistant';

/**
 * The grader's own messages as a judge prompt's body. Item fields are `props.item.*`, the
 * answer under review `props.output`; the evaluator's `props.instructions` (which field to
 * fill, from the score schema) goes after the last message's text.
 */
function judgeBody(messages: unknown[], unknown: string[]): { body: string; problem?: string } {
  const parts: Array<{ role: Role; text: string }> = [];
  for (const message of messages) {
    const m = (message ?? {}) as { role?: unknown; content?: unknown };
    const role = m.role === 'developer' || m.role === 'system' ? 'system' : m.role === 'assistant' ? 'assistant' : m.role === 'user' ? 'user' : undefined;
    const text = contentText(m.content);
    if (role === undefined) return { body: '', problem: `a message with role ${JSON.stringify(m.role)} (system, developer, user or assistant expected)` };
    if (text === undefined) return { body: '', problem: 'a message whose content is not text (images and audio are not imported)' };
    // A system message after the first becomes a user message: a prompt's <System> comes first.
    parts.push({ role: role === 'system' && parts.length > 0 ? 'user' : role, text: templateToMdx(text, 'judge', unknown) });
  }
  if (parts.length === 0) return { body: '', problem: 'no input messages' };
  const last = parts[parts.length - 1];
  if (last !== undefined) last.text = `${last.text}\n\n{props.instructions}`;
  return { body: parts.map((p) => roleTag(p.role, p.text)).join('\n\n') };
}

/**
 * label_model → llm_judge over a categorical score (passing labels worth 1, the others 0, passing
 * at 1); score_model → llm_judge over a numeric score in `range`, passing at `pass_threshold`.
 * Each gets its own judge prompt in judges/, made from the grader's messages.
 */
export function importModelGrader(grader: Grader, path: Array<string | number>, ctx: GraderContext): string | undefined {
  const from = ctx.doc.ref(path);
  const type = str(grader['type']) ?? '';
  const label = `${type} "${str(grader['name']) ?? ''}"`;
  const verbatim = JSON.stringify(grader, null, 2);
  const model = str(grader['model']);
  const input = grader['input'];
  if (model === undefined || !Array.isArray(input)) {
    ctx.result.leftOut.push({ what: label, from, why: 'needs model and input (a list of messages)', verbatim });
    return undefined;
  }
  let score: ScoreSpec;
  let threshold: number | undefined;
  if (type === 'label_model') {
    const labels = grader['labels'];
    const passing = grader['passing_labels'];
    if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string') || labels.length === 0 || !Array.isArray(passing)) {
      ctx.result.leftOut.push({ what: label, from, why: 'needs labels and passing_labels (lists of strings)', verbatim });
      return undefined;
    }
    score = {
      type: 'categorical',
      description: `OpenAI Evals label_model: one of ${labels.join(', ')}; passing: ${passing.join(', ')}`,
      categories: labels.map((l: string) => ({ label: l, value: passing.includes(l) ? 1 : 0 })),
    };
    threshold = 1;
  } else {
    const range = Array.isArray(grader['range']) && grader['range'].length === 2 ? (grader['range'] as number[]) : [0, 1];
    score = { type: 'numeric', min: range[0], max: range[1], description: `OpenAI Evals score_model: a score from ${range[0]} to ${range[1]}` };
    threshold = typeof grader['pass_threshold'] === 'number' ? grader['pass_threshold'] : undefined;
  }
  const unknown: string[] = [];
  const { body, problem } = judgeBody(input, unknown);
  if (problem !== undefined) {
    ctx.result.leftOut.push({ what: label, from, why: problem, verbatim });
    return undefined;
  }
  const name = evalName(str(grader['name']) ?? '', type);
  const judgeFile = `judges/${name.replace(/_/g, '-')}.prompt.mdx`;
  const sampling = (grader['sampling_params'] ?? {}) as Record<string, unknown>;
  const settings: Record<string, unknown> = { model_name: openaiModel(model), temperature: typeof sampling['temperature'] === 'number' ? sampling['temperature'] : 0 };
  if (typeof sampling['top_p'] === 'number') settings['top_p'] = sampling['top_p'];
  if (typeof sampling['seed'] === 'number') settings['seed'] = sampling['seed'];
  ctx.builder.addPrompt({
    file: judgeFile,
    frontmatter: {
      name: `${name.replace(/_/g, '-')}-judge`,
      // The evaluator replaces this schema with the one its score schema asks for.
      object_config: { ...settings, schema: { type: 'object', properties: { reasoning: { type: 'string' } }, required: ['reasoning'] } },
    },
    body,
  });
  const options: Record<string, unknown> = { prompt: judgeFile, model: openaiModel(model), ...(threshold === undefined ? {} : { threshold }) };
  const used = ctx.builder.addScore(name, { ...score, scorer: 'llm_judge', options });
  ctx.result.imported.push({ what: label, from, to: `eval ${used} (llm_judge with ${judgeFile})` });
  if (unknown.length > 0) ctx.result.notes.push({ what: label, from, why: `kept as literal text (no counterpart): ${[...new Set(unknown)].join(', ')}` });
  return used;
}
