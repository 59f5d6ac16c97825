import { closestMatch, TemplateError, type AgentmarkError } from '../errors/index.js';
import type { Template } from './template.js';
import type { PromptWarning } from './types.js';

export interface UndeclaredProps {
  /** Without `additionalProperties`/`patternProperties`: a read of an undeclared prop refuses the prompt. */
  errors: AgentmarkError[];
  /** With `additionalProperties` or `patternProperties`: a row may carry the prop, so only a warning. */
  warnings: PromptWarning[];
}

/**
 * `props.x` read in the prompt's body where `x` is not a property of its `input_schema`: most
 * likely a typo of a declared name (`props.contry`), which would render as an empty string and
 * reach the model. Only when the schema lists `properties` (AgentMark allows any prop without
 * them); components are not looked into (their props are their attributes). Each name is
 * reported once, at its first use in the file.
 */
export function undeclaredProps(template: Template, inputSchema: unknown): UndeclaredProps {
  const none: UndeclaredProps = { errors: [], warnings: [] };
  if (inputSchema === null || typeof inputSchema !== 'object') return none;
  const schema = inputSchema as { properties?: unknown; additionalProperties?: unknown; patternProperties?: unknown };
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return none;
  const declared = Object.keys(properties);
  // A schema that lets rows carry more props (additionalProperties, patternProperties) makes an
  // undeclared read possibly right, so it is only a warning there.
  const open = (schema.additionalProperties !== undefined && schema.additionalProperties !== false) || schema.patternProperties !== undefined;
  const uses = propReads(template, declared);
  if (open) {
    return {
      errors: [],
      warnings: uses.map(({ name, line, column }) => ({
        file: template.file,
        line,
        column,
        message: `props.${name} is not declared in input_schema (declared: ${declared.join(', ') || 'none'})`,
      })),
    };
  }
  return {
    errors: uses.map(({ name, line, column }) => {
      const close = closestMatch(name, declared);
      const hint =
        close !== undefined
          ? `did you mean "props.${close}"? (declared: ${declared.join(', ')})`
          : declared.length > 0
            ? `declare it under input_schema.properties, or read one of: ${declared.join(', ')}`
            : 'declare it under input_schema.properties';
      return new TemplateError('TEMPLATE_UNDECLARED_PROP', `props.${name} is not declared in input_schema`, {
        location: { file: template.file, line, column },
        hint,
      });
    }),
    warnings: [],
  };
}

export interface PropRead {
  name: string;
  line: number;
  column: number;
}

/** Reads of `props.<name>` for names not in `declared`, each name at its first use. */
export function propReads(template: Template, declared: readonly string[]): PropRead[] {
  const reads: PropRead[] = [];
  const seen = new Set<object>();
  // Iterative, over the IR and the estree inside it alike: any object whose `type` says
  // MemberExpression on the identifier `props` is a read of a top-level prop.
  const pending: unknown[] = [template.nodes];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    const node = value as Record<string, unknown>;
    const name = propName(node);
    if (name !== undefined && !declared.includes(name)) {
      const at = template.lines.at((node['property'] as { start: number }).start);
      reads.push({ name, line: at.line, column: at.column });
    }
    for (const child of Array.isArray(value) ? value : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
  reads.sort((a, b) => a.line - b.line || a.column - b.column);
  const reported = new Set<string>();
  return reads.filter((read) => !reported.has(read.name) && reported.add(read.name));
}

function propName(node: Record<string, unknown>): string | undefined {
  if (node['type'] !== 'MemberExpression') return undefined;
  const object = node['object'] as { type?: string; name?: string } | undefined;
  if (object?.type !== 'Identifier' || object.name !== 'props') return undefined;
  const property = node['property'] as { type?: string; name?: string; value?: unknown } | undefined;
  if (node['computed'] === true) return property?.type === 'Literal' && typeof property.value === 'string' ? property.value : undefined;
  return property?.type === 'Identifier' ? property.name : undefined;
}
