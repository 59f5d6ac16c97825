import type { Attributes } from '@opentelemetry/api';
import { ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OUTPUT_MESSAGES } from '@opentelemetry/semantic-conventions/incubating';
import type { ChatMessage, ContentPart } from '../prompt/types.js';
import type { RunManifest } from '../store/types.js';
import { json } from './json-attribute.js';

/** A row's input props → the messages its prompt rendered to (undefined when it cannot be rendered). */
export type RenderMessages = (input: Record<string, unknown>) => ChatMessage[] | undefined;

/**
 * The run's rows are stored with their input, not their messages: the messages are rendered
 * again from the prompt the run stored (its provenance), which is what the row's call sent, so
 * a live export and `runs export` agree. Loaded only for `--otel-content`.
 */
export async function loadRenderMessages(projectRoot: string, manifest: RunManifest): Promise<RenderMessages | undefined> {
  // The viewer renders a row's messages the same way; one loader for both.
  const { loadRunPrompt, renderRowMessages } = await import('../view/row-messages.js');
  const loaded = await loadRunPrompt(projectRoot, manifest);
  if (!('prompt' in loaded)) return undefined;
  return (input) => renderRowMessages(loaded, input) ?? undefined;
}

interface GenAiPart {
  type: string;
  [key: string]: unknown;
}

/** One of our parts as a part of the GenAI conventions' message schema (gen-ai-input-messages.json). */
function part(item: ContentPart): GenAiPart {
  if (item.type === 'text') return { type: 'text', content: item.text };
  const data = item.type === 'image' ? item.image : item.data;
  const modality = item.type === 'image' ? 'image' : (item.mimeType.split('/')[0] ?? 'file');
  const mime = item.mimeType === undefined ? {} : { mime_type: item.mimeType };
  // A URL is referenced (file_data); inline data is a blob of base64.
  return /^(https?|data):/.test(data) ? { type: 'file_data', modality, ...mime, uri: data } : { type: 'blob', modality, ...mime, content: data };
}

function textOf(message: ChatMessage): string {
  return typeof message.content === 'string' ? message.content : message.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
}

/**
 * The rendered messages under `gen_ai.input.messages` (the GenAI conventions' JSON) and
 * OpenInference's `llm.input_messages.<i>.message.*` and `input.value`, which Phoenix reads.
 */
export function inputMessageAttributes(messages: readonly ChatMessage[]): Attributes {
  const attributes: Attributes = {
    [ATTR_GEN_AI_INPUT_MESSAGES]: json(messages.map((message) => ({ role: message.role, parts: typeof message.content === 'string' ? [{ type: 'text', content: message.content }] : message.content.map(part) }))),
    'input.value': json(messages.map((message) => ({ role: message.role, content: textOf(message) }))),
    'input.mime_type': 'application/json',
  };
  for (const [i, message] of messages.entries()) {
    attributes[`llm.input_messages.${i}.message.role`] = message.role;
    attributes[`llm.input_messages.${i}.message.content`] = textOf(message);
  }
  return attributes;
}

/** The model's answer under `gen_ai.output.messages`, `llm.output_messages.0.message.*` and `output.value`. */
export function outputMessageAttributes(output: unknown, finishReason: string | undefined): Attributes {
  const text = typeof output === 'string' ? output : json(output);
  return {
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: json([{ role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: (finishReason ?? 'stop').replace(/-/g, '_') }]),
    'llm.output_messages.0.message.role': 'assistant',
    'llm.output_messages.0.message.content': text,
    'output.value': text,
    'output.mime_type': typeof output === 'string' ? 'text/plain' : 'application/json',
  };
}
