import type { EsJsxElement, EsJsxFragment } from './estree.js';
import { jsxToIr, type IrElement, type IrNode } from './template-ir.js';
import { FIELD_TAGS, type Template } from './template.js';

type Visit = (name: string, template: Template) => boolean;

/**
 * True when `visit` accepts some tag written in these nodes, in JSX inside their expressions
 * (ForEach bodies, ternaries), or in the bodies of the components they use, at any depth.
 * Used where a role tag may come out of a loop, a branch or a component.
 */
export function someTag(template: Template, nodes: readonly IrNode[], visit: Visit, seen = new Set<Template>()): boolean {
  for (const node of nodes) {
    if (node.kind === 'expression') {
      if (node.expression && someJsx(node.expression, (jsx) => someTag(template, [jsxToIr(template, jsx)], visit, seen))) return true;
      continue;
    }
    if (visit(node.name, template)) return true;
    for (const attribute of node.attributes) {
      if (typeof attribute.value === 'object' && someTag(template, [attribute.value], visit, seen)) return true;
    }
    if (someTag(template, node.children, visit, seen)) return true;
    const component = template.components.get(node.name);
    if (component && !seen.has(component)) {
      seen.add(component);
      if (someTag(component, component.nodes, visit, seen)) return true;
    }
  }
  return false;
}

/** Finds the outermost JSX in an ESTree expression; `found` decides whether to stop. */
function someJsx(node: unknown, found: (jsx: EsJsxElement | EsJsxFragment) => boolean): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    const type = (current as { type?: unknown }).type;
    if (type === 'JSXElement' || type === 'JSXFragment') {
      if (found(current as EsJsxElement | EsJsxFragment)) return true;
      continue;
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== 'type' && key !== 'start' && key !== 'end' && value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return false;
}

const yieldsFields = new WeakMap<IrElement, boolean>();

/** Whether a component's children hold role or prompt tags; asked once per element, not per render. */
export function childrenYieldFields(template: Template, element: IrElement): boolean {
  let yields = yieldsFields.get(element);
  if (yields === undefined) {
    yields = someTag(template, element.children, (name) => FIELD_TAGS.includes(name));
    yieldsFields.set(element, yields);
  }
  return yields;
}
