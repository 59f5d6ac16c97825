import { didYouMean, type PromptSyntaxError } from '../errors/index.js';
import type { EsNode } from './estree.js';
import type { FilterSet } from './filters.js';
import { syntaxError, type IrNode } from './template-ir.js';
import type { Template } from './template.js';

/**
 * Every call of an unknown filter in a body, found at load time with its line:col, so
 * `validate` reports it even in a branch the test props never take. Only `name(…)` calls are
 * looked at; calling anything else is reported when rendered.
 */
export function checkFilterCalls(template: Template, filters: FilterSet): PromptSyntaxError[] {
  const errors: PromptSyntaxError[] = [];
  const visit = (node: EsNode): void => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') return;
    const name = node.callee.name;
    if (filters.get(name)) return;
    errors.push(syntaxError(template, node.callee.start, 'PROMPT_UNKNOWN_FILTER', `unknown filter "${name}"`,
      didYouMean(name, filters.names) ?? `filters: ${filters.names.join(', ')}`));
  };
  const stack: IrNode[] = [...template.nodes];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.kind === 'expression') {
      if (node.expression) walkEs(node.expression, visit);
      continue;
    }
    for (const attribute of node.attributes) if (typeof attribute.value === 'object') stack.push(attribute.value);
    stack.push(...node.children);
  }
  return errors.sort((a, b) => (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0));
}

/** Every ESTree node under `root` (JSX included), without recursion. */
function walkEs(root: EsNode, visit: (node: EsNode) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    if (typeof (current as { type?: unknown }).type === 'string') visit(current as EsNode);
    for (const value of Object.values(current)) if (value !== null && typeof value === 'object') stack.push(value);
  }
}
