import type { IrContext, IrEsm, IrNode } from './template-ir.js';
import type { PromptKind } from './types.js';

/** One parsed .mdx file (the prompt or a component) ready to render synchronously. */
export interface Template extends IrContext {
  /** Top-level nodes of the body (imports excluded). */
  nodes: IrNode[];
  esm: IrEsm[];
  /** `nodes` with the import statements as empty nodes, for rendering a component's whole body. */
  bodyNodes: IrNode[];
  /** Offset where the body starts (after the frontmatter). */
  bodyStart: number;
  /** Imported components by local name. */
  components: Map<string, Template>;
}

export const ROLE_TAGS = ['System', 'User', 'Assistant'] as const;
/** The text of an image or speech prompt (AgentMark's `image_config.prompt`, `speech_config.text`). */
export const PROMPT_TAGS = ['ImagePrompt', 'SpeechPrompt'] as const;
/** Tags whose rendered content is taken out of the body: messages, or an image/speech prompt. */
export const FIELD_TAGS: readonly string[] = [...ROLE_TAGS, ...PROMPT_TAGS];
export const CONTROL_TAGS = ['If', 'ElseIf', 'Else', 'ForEach', 'Raw'] as const;
export const ATTACHMENT_TAGS = ['ImageAttachment', 'FileAttachment'] as const;
export const BUILT_IN_TAGS: readonly string[] = [...ROLE_TAGS, ...CONTROL_TAGS, ...ATTACHMENT_TAGS, ...PROMPT_TAGS];

/** Lowercase names (and fragments) are HTML-like and pass through verbatim. */
export function isPassThrough(name: string): boolean {
  const first = name.charAt(0);
  return name === '' || first !== first.toUpperCase() || first === first.toLowerCase();
}

/** The tags a body of this kind of prompt may use, for hints: image tags are not offered to a chat prompt. */
export function knownTags(template: Template, kind: PromptKind = 'text'): string[] {
  const chat = kind === 'text' || kind === 'object';
  return [...fieldTagsFor(kind), ...CONTROL_TAGS, ...(chat ? ATTACHMENT_TAGS : []), ...template.components.keys()];
}

/** The field tags each kind of prompt uses, as AgentMark reads them. */
export function fieldTagsFor(kind: PromptKind): readonly string[] {
  if (kind === 'image') return ['ImagePrompt'];
  if (kind === 'speech') return ['System', 'SpeechPrompt'];
  return ROLE_TAGS;
}
