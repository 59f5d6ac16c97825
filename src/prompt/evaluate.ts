import { TemplateError, didYouMean } from '../errors/index.js';
import type { EsCall, EsJsxElement, EsJsxFragment, EsMember, EsNode } from './estree.js';
import { BUILT_IN_FILTERS, type Filter, type FilterSet } from './filters.js';
import type { LineIndex } from './line-index.js';
import { Markup, isPlainObject, isTruthy, looseEquals, toNumber, toText } from './values.js';

/** What an expression can see. Nothing global is reachable: only these names. */
export interface EvalContext {
  file: string;
  lines: LineIndex;
  props: Record<string, unknown>;
  /** ForEach variables in scope. */
  locals: ReadonlyMap<string, unknown>;
  /** Renders JSX written inside an expression (e.g. `cond ? <>a</> : null`). */
  renderJsx(node: EsJsxElement | EsJsxFragment): string;
  /** The callable filters: the built-ins and the project's own. @default the built-ins */
  filters?: FilterSet;
}

/** Keys that lead from data to the object model; rejected even where they would be own keys. */
export const FORBIDDEN_KEYS = new Set(['constructor', '__proto__', 'prototype']);
/** Expression nesting deeper than this is refused before the JS stack is at risk. */
export const MAX_DEPTH = 500;

export function templateError(ctx: Pick<EvalContext, 'file' | 'lines'>, offset: number, code: `TEMPLATE_${string}`, message: string, hint?: string): TemplateError {
  return new TemplateError(code, message, { location: { file: ctx.file, ...ctx.lines.at(offset) }, ...(hint ? { hint } : {}) });
}

/** Interprets one expression from the whitelist below; never eval/Function. */
export function evaluate(ctx: EvalContext, node: EsNode, depth = 0): unknown {
  if (depth > MAX_DEPTH) {
    throw templateError(ctx, node.start, 'TEMPLATE_TOO_DEEP', `expression is nested too deeply (more than ${MAX_DEPTH} levels)`);
  }
  const next = depth + 1;
  switch (node.type) {
    case 'Literal':
      if (node.regex !== undefined || node.bigint !== undefined) break;
      return node.value;
    case 'Identifier':
      return identifier(ctx, node.name, node.start);
    case 'MemberExpression':
      return memberChain(ctx, node, next);
    case 'ChainExpression':
      return evaluate(ctx, node.expression, next);
    case 'TemplateLiteral': {
      let text = '';
      node.quasis.forEach((quasi, i) => {
        text += quasi.value.cooked ?? quasi.value.raw;
        const expression = node.expressions[i];
        if (expression) text += toText(evaluate(ctx, expression, next));
      });
      return text;
    }
    case 'ArrayExpression':
      return node.elements.map((element) => {
        if (element === null || element.type === 'SpreadElement') {
          throw templateError(ctx, element?.start ?? node.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'array holes and spreads are not supported');
        }
        return evaluate(ctx, element, next);
      });
    case 'ObjectExpression': {
      const result: Record<string, unknown> = {};
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.computed) {
          throw templateError(ctx, property.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'only plain `key: value` entries are allowed in an object literal');
        }
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : undefined;
        if (key === undefined) throw templateError(ctx, property.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'unsupported object key');
        checkKey(ctx, key, property.key.start);
        result[key] = evaluate(ctx, property.value, next);
      }
      return result;
    }
    case 'UnaryExpression': {
      const value = evaluate(ctx, node.argument, next);
      if (node.operator === '!') return !isTruthy(value);
      if (node.operator === '-') return -toNumber(value);
      if (node.operator === '+') return toNumber(value);
      break;
    }
    case 'BinaryExpression':
      return binary(ctx, node.operator, evaluate(ctx, node.left, next), evaluate(ctx, node.right, next), node.start);
    case 'LogicalExpression': {
      const left = evaluate(ctx, node.left, next);
      if (node.operator === '&&') return isTruthy(left) ? evaluate(ctx, node.right, next) : left;
      if (node.operator === '||') return isTruthy(left) ? left : evaluate(ctx, node.right, next);
      if (node.operator === '??') return left === undefined || left === null ? evaluate(ctx, node.right, next) : left;
      break;
    }
    case 'ConditionalExpression':
      return isTruthy(evaluate(ctx, node.test, next)) ? evaluate(ctx, node.consequent, next) : evaluate(ctx, node.alternate, next);
    case 'CallExpression':
      return call(ctx, node, next);
    case 'JSXElement':
    case 'JSXFragment':
      return new Markup(ctx.renderJsx(node));
    case 'ArrowFunctionExpression':
      throw templateError(ctx, node.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'a function is only allowed as the child of <ForEach>', 'write <ForEach arr={props.items}>{(item, index) => <>…</>}</ForEach>');
    default:
      break;
  }
  throw unsupported(ctx, node);
}

/** The error for a node the interpreter does not run (shared with the load-time check). */
export function unsupported(ctx: Pick<EvalContext, 'file' | 'lines'>, node: EsNode): TemplateError {
  const shown = 'operator' in node ? `operator "${node.operator}"` : (node as { type: string }).type;
  return templateError(ctx, node.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', `${shown} is not allowed in a template expression`);
}

/** Operators `binary` computes. */
export const BINARY_OPERATORS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '==', '!=', '===', '!==', '<', '<=', '>', '>=']);

function identifier(ctx: EvalContext, name: string, offset: number): unknown {
  if (ctx.locals.has(name)) return ctx.locals.get(name);
  if (name === 'props') return ctx.props;
  if (name === 'undefined') return undefined;
  throw unknownIdentifier(ctx, name, offset);
}

/** Shared with the load-time check (check-expressions.ts), so both say the same thing. */
export function unknownIdentifier(ctx: Pick<EvalContext, 'file' | 'lines' | 'locals'>, name: string, offset: number): TemplateError {
  const known = ['props', ...ctx.locals.keys()];
  return templateError(ctx, offset, 'TEMPLATE_UNKNOWN_IDENTIFIER', `unknown identifier "${name}"`,
    didYouMean(name, known) ?? `props are read as props.${name}; known names here: ${known.join(', ')}`);
}

export function checkKey(ctx: Pick<EvalContext, 'file' | 'lines'>, key: string, offset: number): void {
  if (FORBIDDEN_KEYS.has(key)) {
    throw templateError(ctx, offset, 'TEMPLATE_FORBIDDEN_PROPERTY', `property "${key}" is not allowed`);
  }
}

/** Reads only own data: plain-object keys, array indexes and `length`, string `length`. */
export function readProperty(value: unknown, key: string | number): unknown {
  if (Array.isArray(value)) {
    if (key === 'length') return value.length;
    const index = typeof key === 'number' ? key : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
    return Number.isInteger(index) && index >= 0 && index < value.length ? (value as unknown[])[index] : undefined;
  }
  if (typeof value === 'string') return key === 'length' ? value.length : undefined;
  if (isPlainObject(value)) {
    const name = String(key);
    return Object.hasOwn(value, name) ? value[name] : undefined;
  }
  return undefined;
}

/**
 * `a.b[c]?.d…` walked as a loop from the innermost object outwards, so a chain of any length
 * costs no stack. A missing link makes the whole chain undefined (renders empty).
 */
function memberChain(ctx: EvalContext, node: EsMember, depth: number): unknown {
  const links: EsMember[] = [];
  let base: EsNode = node;
  while (base.type === 'MemberExpression' || base.type === 'ChainExpression') {
    if (base.type === 'ChainExpression') base = base.expression;
    else {
      links.push(base);
      base = base.object;
    }
  }
  let value = evaluate(ctx, base, depth);
  for (let i = links.length - 1; i >= 0; i--) {
    const link = links[i] as EsMember;
    let key: string | number;
    if (link.computed) {
      const computed = evaluate(ctx, link.property, depth);
      key = typeof computed === 'number' ? computed : toText(computed);
    } else key = link.property.type === 'Identifier' ? link.property.name : '';
    if (typeof key === 'string') checkKey(ctx, key, link.property.start);
    if (value === undefined || value === null) continue;
    value = readProperty(value, key);
  }
  return value;
}

function call(ctx: EvalContext, node: EsCall, depth: number): unknown {
  const filter = calleeFilter(ctx, node);
  const args = node.arguments.map((argument) => {
    if (argument.type === 'SpreadElement') throw templateError(ctx, argument.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'spread arguments are not supported');
    return evaluate(ctx, argument, depth);
  });
  return filter(args, (message) => {
    throw templateError(ctx, node.start, 'TEMPLATE_FILTER_ARGUMENT', message);
  });
}

/** The filter a call names; anything else is an error (shared with the load-time check). */
export function calleeFilter(ctx: Pick<EvalContext, 'file' | 'lines' | 'filters'>, node: EsCall): Filter {
  const callee = node.callee;
  const filters = ctx.filters ?? BUILT_IN_FILTERS;
  const names = filters.names;
  const hint = `filters: ${names.join(', ')}`;
  if (callee.type !== 'Identifier') {
    throw templateError(ctx, node.start, 'TEMPLATE_NOT_A_FILTER', `only filters can be called; "${calleeText(callee)}" is not a filter`, hint);
  }
  const filter = filters.get(callee.name);
  if (!filter) {
    throw templateError(ctx, callee.start, 'TEMPLATE_UNKNOWN_FILTER', `unknown filter "${callee.name}"`, didYouMean(callee.name, names) ?? hint);
  }
  return filter;
}

/** A short readable name of what was called, e.g. `props.x.toString`. */
function calleeText(node: EsNode): string {
  const parts: string[] = [];
  let current: EsNode = node;
  while (current.type === 'MemberExpression' || current.type === 'ChainExpression') {
    if (current.type === 'ChainExpression') current = current.expression;
    else {
      parts.unshift(current.computed ? '[…]' : `.${current.property.type === 'Identifier' ? current.property.name : '?'}`);
      current = current.object;
    }
  }
  const head = current.type === 'Identifier' ? current.name : current.type === 'CallExpression' ? `${calleeText(current.callee)}(…)` : '(…)';
  return head + parts.join('').replace(/\.\[/g, '[');
}

function binary(ctx: EvalContext, operator: string, left: unknown, right: unknown, offset: number): unknown {
  switch (operator) {
    case '+':
      if (typeof left === 'string' || typeof right === 'string' || left instanceof Markup || right instanceof Markup) return toText(left) + toText(right);
      return toNumber(left) + toNumber(right);
    case '-': return toNumber(left) - toNumber(right);
    case '*': return toNumber(left) * toNumber(right);
    case '/': return toNumber(left) / toNumber(right);
    case '%': return toNumber(left) % toNumber(right);
    case '==': return looseEquals(left, right);
    case '!=': return !looseEquals(left, right);
    case '===': return left === right;
    case '!==': return left !== right;
    case '<': case '<=': case '>': case '>=': {
      const bothStrings = typeof left === 'string' && typeof right === 'string';
      const a = bothStrings ? left : toNumber(left);
      const b = bothStrings ? right : toNumber(right);
      return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
    }
    default:
      throw templateError(ctx, offset, 'TEMPLATE_UNSUPPORTED_SYNTAX', `operator "${operator}" is not allowed in a template expression`);
  }
}
