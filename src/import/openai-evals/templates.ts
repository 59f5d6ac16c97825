import { convertPlaceholders, placeholders, propExpression } from '../mdx-text.js';

/** A `{{item.a.b}}` or `{{sample.output_text}}` reference, split into its namespace and path. */
export interface TemplateRef {
  namespace: 'item' | 'sample';
  path: string[];
}

export function parseRef(expression: string): TemplateRef | undefined {
  const match = /^(item|sample)((?:\.[A-Za-z_$][\w$-]*|\[\d+\])+)$/.exec(expression.trim());
  if (match === null) return undefined;
  const path = [...(match[2] ?? '').matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => m[1] ?? m[2] ?? '');
  return { namespace: match[1] as 'item' | 'sample', path };
}

/** The item field a template is made of, when it is exactly one `{{item.field}}` and nothing else. */
export function soleItemField(template: string): string | undefined {
  const found = placeholders(template);
  const only = found[0];
  if (found.length !== 1 || only === undefined || only.start !== 0 || only.end !== template.trim().length) return undefined;
  const ref = parseRef(only.expression);
  return ref?.namespace === 'item' && ref.path.length === 1 ? ref.path[0] : undefined;
}

/** True when the template is exactly `{{sample.output_text}}`: the model's answer. */
export function isSampleOutput(template: string): boolean {
  const found = placeholders(template.trim());
  return found.length === 1 && found[0]?.start === 0 && found[0].end === template.trim().length && found[0].expression === 'sample.output_text';
}

/** True when the text has no `{{ }}` at all: a literal. */
export function isLiteral(template: string): boolean {
  return placeholders(template).length === 0;
}

/**
 * A message template as MDX. In the prompt an item field is `props.x`; in a judge prompt it is
 * `props.item.x` and the answer under review, `sample.output_text`, is `props.output`.
 * `unknown` collects the placeholders that have no counterpart (kept as literal text).
 */
export function templateToMdx(template: string, where: 'prompt' | 'judge', unknown: string[]): string {
  return convertPlaceholders(template, (expression) => {
    const ref = parseRef(expression);
    if (ref?.namespace === 'item') return propExpression(where === 'judge' ? ['item', ...ref.path] : ref.path);
    if (ref?.namespace === 'sample' && where === 'judge' && ref.path.join('.') === 'output_text') return 'props.output';
    unknown.push(`{{${expression}}}`);
    return undefined;
  });
}

/**
 * A template as a JavaScript expression over a scorer's `input` (the item) and `output`, for
 * config scorers. Undefined when it uses something other than item fields and sample.output_text.
 */
export function templateToJs(template: string): string | undefined {
  const parts: string[] = [];
  let at = 0;
  for (const p of placeholders(template)) {
    if (p.start > at) parts.push(JSON.stringify(template.slice(at, p.start)));
    const ref = parseRef(p.expression);
    if (ref?.namespace === 'item') parts.push(`String(input${ref.path.map((key) => `?.[${JSON.stringify(key)}]`).join('')} ?? '')`);
    else if (ref?.namespace === 'sample' && ref.path.join('.') === 'output_text') parts.push('text(output)');
    else return undefined;
    at = p.end;
  }
  if (at < template.length || parts.length === 0) parts.push(JSON.stringify(template.slice(at)));
  return parts.join(' + ');
}

/** Text of a message's content: a string, an input_text part, or an array of them. Undefined for images and audio. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.map(contentText);
    return texts.every((t): t is string => t !== undefined) ? texts.join('\n') : undefined;
  }
  if (content !== null && typeof content === 'object') {
    const part = content as { type?: unknown; text?: unknown };
    if ((part.type === 'input_text' || part.type === 'output_text' || part.type === undefined) && typeof part.text === 'string') return part.text;
  }
  return undefined;
}
