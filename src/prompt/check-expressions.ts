import { isAgentmarkError, type AgentmarkError } from '../errors/index.js';
import type { EsNode } from './estree.js';
import { BINARY_OPERATORS, MAX_DEPTH, calleeFilter, checkKey, templateError, unknownIdentifier, unsupported } from './evaluate.js';
import { jsxToIr, type IrElement, type IrNode } from './template-ir.js';
import { BUILT_IN_TAGS, isPassThrough, type Template } from './template.js';

type Scope = ReadonlyMap<string, undefined>;

/**
 * Finds, at load, every expression error no props can avoid: a call of something that is not a
 * filter, an unknown identifier, a forbidden property (`constructor`, `__proto__`),
 * syntax the interpreter does not run. The interpreter finds the same errors at render, but a
 * render error is one row's error; these are the prompt's, so every command must refuse the
 * prompt (exit 2) before any row is rendered or any model called. Errors that depend on the
 * props (a filter's argument, a deep value) stay render errors. Messages are the interpreter's.
 */
export function checkExpressions(template: Template): AgentmarkError[] {
  const errors: AgentmarkError[] = [];
  // The whole body is rendered (role tags may come out of loops, branches and components), so
  // text outside role tags is evaluated too, then dropped with a warning.
  walk(template, template.nodes, new Map(), errors);
  return errors;
}

function walk(template: Template, nodes: readonly IrNode[], scope: Scope, errors: AgentmarkError[]): void {
  for (const node of nodes) {
    if (node.kind === 'expression') {
      if (node.expression) check(template, node.expression, scope, errors);
      continue;
    }
    // An unknown tag is already an error of its own; what is inside it would only add noise.
    if (!isPassThrough(node.name) && !BUILT_IN_TAGS.includes(node.name) && !template.components.has(node.name)) continue;
    for (const attribute of node.attributes) {
      if (typeof attribute.value === 'object' && attribute.value.expression) check(template, attribute.value.expression, scope, errors);
    }
    if (node.name === 'ForEach') forEach(template, node, scope, errors);
    else walk(template, node.children, scope, errors);
  }
}

/** Only the child function is rendered, with its parameters in scope (the tag check reports a malformed one). */
function forEach(template: Template, element: IrElement, scope: Scope, errors: AgentmarkError[]): void {
  const child = element.children.find((c) => c.kind === 'expression' && c.expression !== undefined);
  const fn = child?.kind === 'expression' ? child.expression : undefined;
  if (fn?.type !== 'ArrowFunctionExpression' || (fn.body.type !== 'JSXFragment' && fn.body.type !== 'JSXElement')) return;
  const inner = new Map(scope);
  for (const param of fn.params) if (param.type === 'Identifier') inner.set(param.name, undefined);
  walk(template, [jsxToIr(template, fn.body)], inner, errors);
}

/** One expression: its first error is recorded, then the walk goes on with the next expression. */
function check(template: Template, node: EsNode, scope: Scope, errors: AgentmarkError[]): void {
  try {
    expression(template, node, scope, 0, errors);
  } catch (error) {
    if (!isAgentmarkError(error)) throw error;
    errors.push(error);
  }
}

/** Mirrors `evaluate` case by case, without values; throws what it would throw for any props. */
function expression(template: Template, node: EsNode, scope: Scope, depth: number, errors: AgentmarkError[]): void {
  const ctx = { file: template.file, lines: template.lines, locals: scope };
  if (depth > MAX_DEPTH) {
    throw templateError(ctx, node.start, 'TEMPLATE_TOO_DEEP', `expression is nested too deeply (more than ${MAX_DEPTH} levels)`);
  }
  const next = (child: EsNode): void => expression(template, child, scope, depth + 1, errors);
  switch (node.type) {
    case 'Literal':
      if (node.regex !== undefined || node.bigint !== undefined) throw unsupported(ctx, node);
      return;
    case 'Identifier':
      if (!scope.has(node.name) && node.name !== 'props' && node.name !== 'undefined') throw unknownIdentifier(ctx, node.name, node.start);
      return;
    case 'ChainExpression':
      return next(node.expression);
    case 'MemberExpression': {
      // A chain is walked as a loop, in `memberChain`'s order: its length costs no stack.
      const links: Array<Extract<EsNode, { type: 'MemberExpression' }>> = [];
      let base: EsNode = node;
      while (base.type === 'MemberExpression' || base.type === 'ChainExpression') {
        if (base.type === 'ChainExpression') base = base.expression;
        else {
          links.push(base);
          base = base.object;
        }
      }
      next(base);
      for (const link of links.reverse()) {
        const key = link.property;
        if (link.computed) next(key);
        if (link.computed ? key.type === 'Literal' && typeof key.value === 'string' : key.type === 'Identifier') {
          checkKey(ctx, key.type === 'Identifier' ? key.name : String((key as { value: unknown }).value), key.start);
        }
      }
      return;
    }
    case 'TemplateLiteral':
      return node.expressions.forEach((child) => next(child));
    case 'ArrayExpression':
      for (const element of node.elements) {
        if (element === null || element.type === 'SpreadElement') {
          throw templateError(ctx, element?.start ?? node.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'array holes and spreads are not supported');
        }
        next(element);
      }
      return;
    case 'ObjectExpression':
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.computed) {
          throw templateError(ctx, property.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'only plain `key: value` entries are allowed in an object literal');
        }
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : undefined;
        if (key === undefined) throw templateError(ctx, property.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'unsupported object key');
        checkKey(ctx, key, property.key.start);
        next(property.value);
      }
      return;
    case 'UnaryExpression':
      next(node.argument);
      if (node.operator !== '!' && node.operator !== '-' && node.operator !== '+') throw unsupported(ctx, node);
      return;
    case 'BinaryExpression':
      next(node.left);
      next(node.right);
      if (!BINARY_OPERATORS.has(node.operator)) throw unsupported(ctx, node);
      return;
    case 'LogicalExpression':
      next(node.left);
      next(node.right);
      return;
    case 'ConditionalExpression':
      next(node.test);
      next(node.consequent);
      next(node.alternate);
      return;
    case 'CallExpression':
      // A filter's name is checked by `checkFilterCalls`, against the project's own filters too.
      if (node.callee.type !== 'Identifier') calleeFilter(ctx, node);
      for (const argument of node.arguments) {
        if (argument.type === 'SpreadElement') throw templateError(ctx, argument.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'spread arguments are not supported');
        next(argument);
      }
      return;
    case 'JSXElement':
    case 'JSXFragment':
      // Rendered like the body around it, with the same names in scope.
      return walk(template, [jsxToIr(template, node)], scope, errors);
    case 'ArrowFunctionExpression':
      throw templateError(ctx, node.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'a function is only allowed as the child of <ForEach>', 'write <ForEach arr={props.items}>{(item, index) => <>…</>}</ForEach>');
    default:
      throw unsupported(ctx, node);
  }
}
