import { TemplateError } from '../errors/index.js';
import type { ChatMessage, ContentPart, PromptWarning, Role } from './types.js';
import { minIndent } from './layout.js';
import { renderRange, type RenderState } from './render-body.js';
import { ROLE_TAGS, type Template } from './template.js';

const ROLE_OF: Record<string, Role> = { System: 'system', User: 'user', Assistant: 'assistant' };
const isRoleTag = (name: string): boolean => (ROLE_TAGS as readonly string[]).includes(name);

/** Renders every top-level role tag into a message, in document order. */
export function renderMessages(template: Template, props: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const budget = { nodes: 0 };
  try {
    for (const node of template.nodes) {
      if (node.kind !== 'element' || !isRoleTag(node.name)) continue;
      const role = ROLE_OF[node.name] as Role;
      const attachments: ContentPart[] = [];
      const state: RenderState = {
        template, props, locals: new Map(), depth: 0, budget,
        attachments: role === 'user' ? attachments : undefined,
      };
      // Indentation common to the tag's lines is layout, not content.
      const dedent = minIndent(template.source, node.innerStart, node.innerEnd);
      const text = renderRange(state, node.innerStart, node.innerEnd, node.children, dedent).trim();
      if (attachments.length === 0) messages.push({ role, content: text });
      else messages.push({ role, content: [...(text ? [{ type: 'text' as const, text }] : []), ...attachments] });
    }
  } catch (error) {
    if (error instanceof RangeError) {
      // A stack overflow from hostile nesting must be a template error, not a crash.
      throw new TemplateError('TEMPLATE_TOO_DEEP', 'template is nested too deeply to render', {
        location: { file: template.file },
        cause: error,
      });
    }
    throw error;
  }
  return messages;
}

/** Text and tags outside role tags produce no message; say so rather than drop them silently. */
export function outsideRoleWarnings(template: Template): PromptWarning[] {
  const warnings: PromptWarning[] = [];
  const skip = [
    ...template.esm.map((e) => ({ start: e.start, end: e.end })),
    ...template.nodes.filter((n) => n.kind === 'element' && isRoleTag(n.name)).map((n) => ({ start: n.start, end: n.end })),
    ...template.nodes.filter((n) => n.kind === 'expression' && n.expression === undefined).map((n) => ({ start: n.start, end: n.end })),
  ].sort((a, b) => a.start - b.start);
  let position = template.bodyStart;
  const gaps: Array<[number, number]> = [];
  for (const range of skip) {
    if (range.start > position) gaps.push([position, range.start]);
    position = Math.max(position, range.end);
  }
  gaps.push([position, template.source.length]);
  for (const [start, end] of gaps) {
    const text = template.source.slice(start, end);
    const offset = text.search(/\S/);
    if (offset === -1) continue;
    warnings.push({
      file: template.file,
      ...template.lines.at(start + offset),
      message: 'content outside <System>, <User> or <Assistant> is ignored',
    });
  }
  return warnings;
}
