import { type PromptfooContext, isRecord, str } from './context.js';

/** The models the prompts run on, and the settings of the first provider that gives any. */
export interface Models {
  ids: string[];
  settings: Record<string, unknown>;
  /** The tools' argument schemas from the providers' `config.tools`, by name (for is_valid_tools_call). */
  toolSchemas: Record<string, unknown>;
}

/** OpenAI's `{ type: function, function: { name, parameters } }` or Anthropic's `{ name, input_schema }`. */
function toolSchemas(tools: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(tools)) return undefined;
  const out: Record<string, unknown> = {};
  for (const tool of tools) {
    const fn = isRecord(tool) && isRecord(tool['function']) ? tool['function'] : isRecord(tool) ? tool : {};
    const name = str(fn['name']);
    const schema = fn['parameters'] ?? fn['input_schema'];
    if (name !== undefined && isRecord(schema)) out[name] = schema;
  }
  return out;
}

/** Prefixes served by an AI SDK provider package (see docs/config.md): kept, with a note to install it. */
const BY_PACKAGE: Record<string, string> = { anthropic: 'anthropic', google: 'google', vertex: 'google', mistral: 'mistral', groq: 'groq', xai: 'xai' };
/** promptfoo's sub-kinds between the provider and the model id. */
const KINDS = new Set(['chat', 'completion', 'responses', 'messages', 'assistant']);

/** `openai:gpt-4o-mini`, `openai:chat:gpt-4o`, `anthropic:messages:claude-…` → `provider/model`. */
export function modelId(id: string): { id: string; provider: string } | undefined {
  const [provider = '', ...rest] = id.split(':');
  const model = (KINDS.has(rest[0] ?? '') ? rest.slice(1) : rest).join(':');
  if (model === '') return undefined;
  if (provider === 'openai' || provider === 'azureopenai') return { id: `openai/${model}`, provider: 'openai' };
  const pkg = BY_PACKAGE[provider];
  return pkg === undefined ? undefined : { id: `${pkg}/${model}`, provider: pkg };
}

/** promptfoo provider config keys with a text_config counterpart. */
function settingsOf(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const copy: Record<string, string> = { temperature: 'temperature', max_tokens: 'max_tokens', max_completion_tokens: 'max_tokens', top_p: 'top_p', seed: 'seed', presence_penalty: 'presence_penalty', frequency_penalty: 'frequency_penalty', stop: 'stop_sequences' };
  for (const [from, to] of Object.entries(copy)) if (config[from] !== undefined) out[to] = from === 'stop' && typeof config[from] === 'string' ? [config[from]] : config[from];
  return out;
}

export function readProviders(ctx: PromptfooContext): Models {
  const raw = (ctx.doc.value as Record<string, unknown>)['providers'] ?? (ctx.doc.value as Record<string, unknown>)['targets'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const models: Models = { ids: [], settings: {}, toolSchemas: {} };
  for (const [i, entry] of list.entries()) {
    const from = ctx.doc.ref(Array.isArray(raw) ? ['providers', i] : ['providers']);
    // `- openai:gpt-4o` or `- id: openai:gpt-4o` or `- openai:gpt-4o: { config }` (the map form).
    const record = isRecord(entry) ? entry : undefined;
    const mapForm = record && str(record['id']) === undefined && Object.keys(record).length === 1 ? Object.keys(record)[0] : undefined;
    const id = str(entry) ?? (record ? (str(record['id']) ?? mapForm) : undefined);
    const config = record ? ((mapForm ? (record[mapForm] as Record<string, unknown> | undefined)?.['config'] : record['config']) ?? {}) : {};
    if (id === undefined) {
      ctx.result.leftOut.push({ what: `provider ${i + 1}`, from, why: 'not a provider id or { id, config }', verbatim: JSON.stringify(entry, null, 2) });
      continue;
    }
    const mapped = modelId(id);
    if (mapped === undefined) {
      ctx.result.leftOut.push({ what: `provider ${id}`, from, why: 'no counterpart: this tool calls OpenAI-compatible endpoints and AI SDK providers (register one under `providers` in agentmark.config.ts)' });
      continue;
    }
    if (!models.ids.includes(mapped.id)) models.ids.push(mapped.id);
    const settings = isRecord(config) ? settingsOf(config) : {};
    if (isRecord(config) && config['tools'] !== undefined) {
      const schemas = toolSchemas(config['tools']);
      if (schemas !== undefined) Object.assign(models.toolSchemas, schemas);
      ctx.result.leftOut.push({
        what: `provider ${id} config.tools`,
        from,
        why: schemas === undefined ? 'tools from a file are not read' : 'the prompt is not offered these tools: register them under `tools` in agentmark.config.ts and list them in text_config.tools (is-valid-openai-tools-call checks calls against their schemas)',
        verbatim: JSON.stringify(config['tools'], null, 2),
      });
    }
    if (Object.keys(models.settings).length === 0) models.settings = settings;
    else if (JSON.stringify(settings) !== JSON.stringify(models.settings) && Object.keys(settings).length > 0) {
      ctx.result.notes.push({ what: `provider ${id}`, from, why: `its settings (${JSON.stringify(settings)}) differ from the first provider's; the prompt uses the first's for every model` });
    }
    ctx.result.imported.push({ what: `provider ${id}`, from, to: `model ${mapped.id}` });
    if (mapped.provider !== 'openai') ctx.result.notes.push({ what: `provider ${id}`, from, why: `runs through @ai-sdk/${mapped.provider}: npm install @ai-sdk/${mapped.provider}@3 in the project` });
  }
  return models;
}
