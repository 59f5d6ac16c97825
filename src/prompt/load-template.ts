import { dirname, relative, resolve } from 'node:path';
import { PromptSyntaxError, type AgentmarkError } from '../errors/index.js';
import { outsideScope, type PathScope } from '../project/path-scope.js';
import { checkExpressions } from './check-expressions.js';
import type { EsModuleStatement } from './estree.js';
import { parseFrontmatter } from './frontmatter.js';
import { parseTemplate } from './parse-template.js';
import type { TemplateCache } from './template-cache.js';
import type { PromptKind } from './types.js';
import { readUtf8File } from './read-utf8.js';
import { syntaxError } from './template-ir.js';
import { BUILT_IN_TAGS, type Template } from './template.js';
import { validateBody } from './validate-body.js';

/** Shared across one loadPrompt: templates by absolute path, and every file read. */
export interface LoadSession {
  templates: Map<string, Template>;
  files: Set<string>;
  errors: AgentmarkError[];
  /** Where components may be imported from: the project root and its allowedPaths. */
  scope: PathScope;
  /** Parsed bodies kept between commands (the project's `.agentmark/prompt-cache/`). */
  cache?: TemplateCache;
  /** The prompt's kind: which role and prompt tags its body and components may use. */
  kind?: PromptKind;
}

/**
 * Parses a body and, depth first, every component it imports, so render() needs no I/O.
 * `stack` holds the files being loaded above this one: meeting one again is an import cycle.
 */
export async function loadTemplate(file: string, source: string, bodyStart: number, session: LoadSession, stack: readonly string[]): Promise<Template> {
  const template = await parseTemplate(file, source, bodyStart, session.cache);
  session.templates.set(file, template);
  const chain = [...stack, file];
  for (const esm of template.esm) {
    for (const statement of (esm.program?.body ?? []) as Array<EsModuleStatement & { type: string }>) {
      if (statement.type !== 'ImportDeclaration') {
        throw syntaxError(template, statement.start, 'PROMPT_EXPORT_NOT_ALLOWED', 'exports are not allowed; a prompt or component may only default-import .mdx components');
      }
      const specifiers = statement.specifiers ?? [];
      const request = String(statement.source?.value ?? '');
      const only = specifiers[0];
      if (specifiers.length !== 1 || only?.type !== 'ImportDefaultSpecifier') {
        throw syntaxError(template, statement.start, 'PROMPT_NAMED_IMPORT', `only default imports are supported: import Name from '${request}'`, `write: import ${only?.local.name ?? 'Name'} from '${request}'`);
      }
      const name = only.local.name;
      if (BUILT_IN_TAGS.includes(name)) {
        throw syntaxError(template, statement.start, 'PROMPT_IMPORT_SHADOWS_BUILTIN', `import name ${name} is a built-in tag; choose another name`);
      }
      if (!request.startsWith('./') && !request.startsWith('../')) {
        throw syntaxError(template, statement.start, 'PROMPT_IMPORT_NOT_RELATIVE', `component path must be relative (./ or ../): '${request}'`);
      }
      const target = resolve(dirname(file), request);
      const outside = outsideScope(session.scope, target, request);
      if (outside) throw syntaxError(template, statement.start, 'PROMPT_IMPORT_OUTSIDE_PROJECT', `component ${outside.message}`, outside.hint);
      if (chain.includes(target)) {
        const cycle = [...chain.slice(chain.indexOf(target)), target].map((f) => relative(dirname(chain[0] ?? file), f) || f);
        throw syntaxError(template, statement.start, 'PROMPT_IMPORT_CYCLE', `import cycle: ${cycle.join(' -> ')}`);
      }
      let component = session.templates.get(target);
      if (!component) {
        let text: string;
        try {
          text = await readUtf8File(target);
        } catch (error) {
          if (error instanceof PromptSyntaxError) throw error;
          throw syntaxError(template, statement.start, 'PROMPT_COMPONENT_NOT_FOUND', `component file not found: '${request}' (looked for ${target})`);
        }
        session.files.add(target);
        const front = await parseFrontmatter(target, text);
        component = await loadTemplate(target, front.body, front.bodyStart, session, chain);
      }
      template.components.set(name, component);
    }
  }
  session.errors.push(...validateBody(template, stack.length === 0, session.kind), ...checkExpressions(template));
  return template;
}
