import { closestMatch } from '../errors/index.js';
import type { Template } from './template.js';
import type { PromptWarning } from './types.js';

/**
 * `props.x` read in the prompt's body where `x` is not a property of its `input_schema`: most
 * likely a typo of a declared name, or a prop the dataset is never checked for. Only when the
 * schema lists `properties`; components are not looked into (their props are their attributes).
 */
export function undeclaredProps(template: Template, inputSchema: unknown): PromptWarning[] {
  if (inputSchema === null || typeof inputSchema !== 'object') return [];
  const properties = (inputSchema as { properties?: unknown }).properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return [];
  const declared = Object.keys(properties);
  const warnings: Array<PromptWarning & { name: string }> = [];
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
      const close = closestMatch(name, declared);
      const at = template.lines.at((node['property'] as { start: number }).start);
      warnings.push({
        file: template.file,
        line: at.line,
        column: at.column,
        name,
        message: `props.${name} is not in input_schema (declared: ${declared.join(', ') || 'none'})${close === undefined ? '' : `; did you mean "props.${close}"?`}`,
      });
    }
    for (const child of Array.isArray(value) ? value : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
  // Each name once, at its first use in the file.
  warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const reported = new Set<string>();
  return warnings.filter((w) => !reported.has(w.name) && reported.add(w.name)).map(({ name: _name, ...warning }) => warning);
}

function propName(node: Record<string, unknown>): string | undefined {
  if (node['type'] !== 'MemberExpression') return undefined;
  const object = node['object'] as { type?: string; name?: string } | undefined;
  if (object?.type !== 'Identifier' || object.name !== 'props') return undefined;
  const property = node['property'] as { type?: string; name?: string; value?: unknown } | undefined;
  if (node['computed'] === true) return property?.type === 'Literal' && typeof property.value === 'string' ? property.value : undefined;
  return property?.type === 'Identifier' ? property.name : undefined;
}
