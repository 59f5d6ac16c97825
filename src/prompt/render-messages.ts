import { TemplateError } from '../errors/index.js';
import type { ChatMessage, PromptKind, PromptWarning, Role } from './types.js';
import { BUILT_IN_FILTERS, type FilterSet } from './filters.js';
import { someTag } from './find-tags.js';
import { renderRange, type RenderedField, type RenderState } from './render-body.js';
import { FIELD_TAGS, fieldTagsFor, type Template } from './template.js';

const ROLE_OF: Record<string, Role> = { System: 'system', User: 'user', Assistant: 'assistant' };
const isFieldTag = (name: string): boolean => FIELD_TAGS.includes(name);

/**
 * Renders the whole body and returns its role and prompt tags in document order. Tags may come
 * from loops, branches and components; everything outside them prints nowhere.
 */
export function renderFields(template: Template, props: Record<string, unknown>, kind: PromptKind, filters: FilterSet = BUILT_IN_FILTERS): RenderedField[] {
  const state: RenderState = {
    template, props, locals: new Map(), depth: 0, budget: { nodes: 0 },
    attachments: undefined, kind, fields: [], inside: undefined, filters,
  };
  try {
    renderRange(state, template.bodyStart, template.source.length, template.bodyNodes, 0);
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
  return state.fields;
}

/** The messages of a text or object prompt. */
export function renderMessages(template: Template, props: Record<string, unknown>, kind: PromptKind = 'text', filters?: FilterSet): ChatMessage[] {
  return renderFields(template, props, kind, filters).map((field) => ({ role: ROLE_OF[field.tag] as Role, content: field.content }));
}

/**
 * The text of an image or speech prompt: its one `<ImagePrompt>` / `<SpeechPrompt>`, and for
 * speech the `<System>` instructions ('' without one), as AgentMark renders them.
 */
export function renderPromptText(template: Template, props: Record<string, unknown>, kind: 'image' | 'speech', filters?: FilterSet): { text: string; instructions: string } {
  const tag = kind === 'image' ? 'ImagePrompt' : 'SpeechPrompt';
  const fields = renderFields(template, props, kind, filters);
  const texts = fields.filter((f) => f.tag === tag);
  const second = texts[1];
  if (second) {
    throw new TemplateError('TEMPLATE_DUPLICATE_PROMPT', `this ${kind} prompt rendered ${texts.length} <${tag}> tags; it takes one`, {
      location: { file: second.file, ...template.lines.at(second.offset) },
    });
  }
  const text = typeof texts[0]?.content === 'string' ? texts[0].content : '';
  if (text === '') {
    throw new TemplateError('TEMPLATE_EMPTY_PROMPT', `the ${kind} prompt rendered no text: <${tag}> is ${texts[0] ? 'empty' : 'missing'}`, {
      location: { file: template.file, ...(texts[0] ? template.lines.at(texts[0].offset) : {}) },
      hint: `write the ${kind === 'image' ? 'image description' : 'text to speak'} inside <${tag}>…</${tag}>`,
    });
  }
  const system = fields.find((f) => f.tag === 'System');
  return { text, instructions: typeof system?.content === 'string' ? system.content : '' };
}

/** Text and tags outside role tags produce no message; say so rather than drop them silently. */
export function outsideRoleWarnings(template: Template, kind: PromptKind = 'text'): PromptWarning[] {
  const warnings: PromptWarning[] = [];
  const tags = fieldTagsFor(kind).map((t) => `<${t}>`);
  const listed = tags.length > 1 ? `${tags.slice(0, -1).join(', ')} or ${tags[tags.length - 1] ?? ''}` : (tags[0] ?? '');
  const skip = [
    ...template.esm.map((e) => ({ start: e.start, end: e.end })),
    // A loop, branch or component that yields role tags is where messages come from, not stray text.
    ...template.nodes.filter((n) => someTag(template, [n], isFieldTag)).map((n) => ({ start: n.start, end: n.end })),
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
      message: `content outside ${listed} is ignored`,
    });
  }
  return warnings;
}
