import { dirname, join, resolve } from 'node:path';
import { ErrorList, PromptSyntaxError, type AgentmarkError } from '../errors/index.js';
import { projectScope, realPath, type PathScope } from '../project/path-scope.js';
import type { Project } from '../project/types.js';
import { parseFrontmatter } from './frontmatter.js';
import { loadTemplate, type LoadSession } from './load-template.js';
import { outsideRoleWarnings, renderMessages } from './render-messages.js';
import type { ChatMessage, LoadedPrompt, ObjectConfig, PromptFrontmatter, RenderedPrompt, TestSettings, TextConfig } from './types.js';
import { validateFrontmatter, type ConfigBlock } from './validate-frontmatter.js';
import { readUtf8File } from './read-utf8.js';
import { TemplateCache } from './template-cache.js';

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
  const checked = await validateFrontmatter(file, parsed, options.project?.builtInModels ?? []);
  const session: LoadSession = {
    templates: new Map(),
    files: new Set([file]),
    errors: [...checked.errors],
    scope: options.scope ?? (options.project ? projectScope(options.project) : { root: realPath(dirname(file)), allowed: [] }),
    ...(options.project ? { cache: new TemplateCache(join(options.project.root, '.agentmark', 'prompt-cache')) } : {}),
  };
  const template = await loadTemplate(file, parsed.body, parsed.bodyStart, session, []);
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
    warnings: outsideRoleWarnings(template),
    locate: (path) => ({ file, ...parsed.positionOf(path) }),
    render(props: Record<string, unknown>): RenderedPrompt {
      return withConfig({ name: frontmatter.name, messages: renderMessages(template, props), test_settings: testSettings }, frontmatter, block);
    },
  };
}

function withConfig(
  base: { name: string; messages: ChatMessage[]; test_settings: TestSettings },
  frontmatter: PromptFrontmatter,
  block: ConfigBlock,
): RenderedPrompt {
  switch (block) {
    case 'text_config':
      return { ...base, text_config: frontmatter.text_config as TextConfig };
    case 'object_config':
      return { ...base, object_config: frontmatter.object_config as ObjectConfig };
    case 'image_config':
      return { ...base, image_config: frontmatter.image_config ?? {} };
    case 'speech_config':
      return { ...base, speech_config: frontmatter.speech_config ?? {} };
  }
}
