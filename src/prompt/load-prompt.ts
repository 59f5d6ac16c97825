import { dirname, join, resolve } from 'node:path';
import { ErrorList, PromptSyntaxError, type AgentmarkError } from '../errors/index.js';
import { projectScope, realPath, type PathScope } from '../project/path-scope.js';
import type { Project } from '../project/types.js';
import { checkFilterCalls } from './check-filters.js';
import { filterSet, type FilterSet, type UserFilter } from './filters.js';
import { parseFrontmatter, type ParsedFrontmatter } from './frontmatter.js';
import { loadTemplate, type LoadSession } from './load-template.js';
import { outsideRoleWarnings, renderMessages, renderPromptText } from './render-messages.js';
import type { LoadedPrompt, ObjectConfig, PromptFrontmatter, RenderedPrompt, TextConfig } from './types.js';
import type { Template } from './template.js';
import { validateFrontmatter, type ConfigBlock } from './validate-frontmatter.js';
import { readUtf8File } from './read-utf8.js';
import { inlineSchemaRefs } from './schema-refs.js';
import { findUnknownKeys } from './unknown-keys.js';
import { propReads, undeclaredProps } from './check-input-props.js';
import { TemplateCache } from './template-cache.js';
import { overlaidText } from '../source-overlay.js';

export interface LoadPromptOptions {
  /**
   * Supplies builtInModels (when non-empty, model_name must be one of them), and a place to keep
   * parsed bodies between commands: `<root>/.agentmark/prompt-cache/`.
   */
  project?: Project;
  /**
   * Folders components may be imported from.
   * @default the project's root and allowedPaths; without a project, the prompt's own folder
   */
  scope?: PathScope;
  /**
   * The project's own filters (`filters` in agentmark.config.ts), callable in the body like the
   * built-ins; a call of any other name is an error at load.
   */
  filters?: Readonly<Record<string, UserFilter>>;
}

function throwAll(errors: readonly AgentmarkError[]): never {
  if (errors.length === 1 && errors[0]) throw errors[0];
  throw new ErrorList(errors);
}

/**
 * Reads a .prompt.mdx file, validates its frontmatter, parses its body and every component it
 * imports, and checks the tag structure. The returned `render` is synchronous and pure.
 */
export async function loadPrompt(path: string, options: LoadPromptOptions = {}): Promise<LoadedPrompt> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readUtf8File(file);
  } catch (error) {
    if (error instanceof PromptSyntaxError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PromptSyntaxError('PROMPT_FILE_NOT_FOUND', code === 'ENOENT' ? 'prompt file not found' : `cannot read prompt file: ${code ?? String(error)}`, {
      location: { file },
      cause: error,
    });
  }
  const parsed = await parseFrontmatter(file, text);
  const scope = options.scope ?? (options.project ? projectScope(options.project) : { root: realPath(dirname(file)), allowed: [] });
  const files = new Set([file]);
  const refErrors = await inlineFrontmatterRefs(file, parsed, scope, files);
  const checked = await validateFrontmatter(file, parsed, options.project?.builtInModels ?? []);
  const session: LoadSession = {
    templates: new Map(),
    files,
    errors: [...refErrors, ...checked.errors],
    scope,
    ...(checked.result ? { kind: checked.result.kind } : {}),
    // An editor's unsaved buffer (the language server) changes at every keystroke: caching each
    // version on disk would write a file per edit.
    ...(options.project && overlaidText(file) === undefined ? { cache: new TemplateCache(join(options.project.root, '.agentmark', 'prompt-cache')) } : {}),
  };
  const template = await loadTemplate(file, parsed.body, parsed.bodyStart, session, []);
  const filters = filterSet(options.filters);
  for (const loaded of session.templates.values()) session.errors.push(...checkFilterCalls(loaded, filters));
  // Read from the parsed frontmatter, so a typo is reported with the prompt's other errors.
  const props = undeclaredProps(template, parsed.data['input_schema']);
  session.errors.push(...props.errors);
  if (session.errors.length > 0 || !checked.result) throwAll(session.errors);

  const { frontmatter, kind, block } = checked.result;
  const testSettings = frontmatter.test_settings ?? {};
  return {
    path: file,
    name: frontmatter.name,
    source: text,
    frontmatter,
    kind,
    testSettings,
    inputSchema: frontmatter.input_schema,
    files: [...session.files],
    warnings: [...findUnknownKeys(file, parsed), ...props.warnings, ...outsideRoleWarnings(template, kind)],
    propReads: propReads(template, []).map((read) => ({ ...read, file: template.file })),
    locate: (path) => ({ file, ...parsed.positionOf(path) }),
    render(props: Record<string, unknown>): RenderedPrompt {
      return renderPrompt(template, frontmatter, block, props, filters);
    },
  };
}

/**
 * Replaces `input_schema` and `object_config.schema` in the parsed frontmatter by their
 * versions with file `$ref`s inlined, before they are validated and compiled.
 */
async function inlineFrontmatterRefs(file: string, parsed: ParsedFrontmatter, scope: PathScope, files: Set<string>): Promise<AgentmarkError[]> {
  const errors: AgentmarkError[] = [];
  const places: Array<{ path: string[]; owner: Record<string, unknown> | undefined; key: string }> = [
    { path: ['input_schema'], owner: parsed.data, key: 'input_schema' },
    { path: ['object_config', 'schema'], owner: asRecord(parsed.data['object_config']), key: 'schema' },
  ];
  for (const { path, owner, key } of places) {
    const schema = owner?.[key];
    if (owner === undefined || schema === null || typeof schema !== 'object') continue;
    const locate = (pointer: string) => {
      const segments = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      return { file, ...(parsed.positionOf([...path, ...segments]) ?? {}) };
    };
    try {
      owner[key] = await inlineSchemaRefs(schema, { file, locate }, { scope, files });
    } catch (error) {
      if (!(error instanceof PromptSyntaxError)) throw error;
      errors.push(error);
      // The load fails with this error; an empty schema keeps the compiler from repeating it.
      owner[key] = {};
    }
  }
  return errors;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The render output in AgentMark's shape for each kind of prompt, `agentmark_meta` last. */
function renderPrompt(template: Template, frontmatter: PromptFrontmatter, block: ConfigBlock, props: Record<string, unknown>, filters: FilterSet): RenderedPrompt {
  const name = frontmatter.name;
  const test_settings = frontmatter.test_settings ?? {};
  const meta = frontmatter['agentmark_meta'];
  const agentmark_meta = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? { agentmark_meta: meta as Record<string, unknown> } : {};
  switch (block) {
    case 'text_config':
      return { name, messages: renderMessages(template, props, 'text', filters), test_settings, text_config: frontmatter.text_config as TextConfig, ...agentmark_meta };
    case 'object_config':
      return { name, messages: renderMessages(template, props, 'object', filters), test_settings, object_config: frontmatter.object_config as ObjectConfig, ...agentmark_meta };
    case 'image_config': {
      const { text } = renderPromptText(template, props, 'image', filters);
      return { name, image_config: { ...frontmatter.image_config, prompt: text }, test_settings, ...agentmark_meta };
    }
    case 'speech_config': {
      const { text, instructions } = renderPromptText(template, props, 'speech', filters);
      return { name, speech_config: { ...frontmatter.speech_config, text, instructions }, test_settings, ...agentmark_meta };
    }
  }
}
