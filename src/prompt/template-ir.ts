import { PromptSyntaxError } from '../errors/index.js';
import type { EsJsxChild, EsJsxElement, EsJsxFragment, EsJsxName, EsNode, EsProgram } from './estree.js';
import type { LineIndex } from './line-index.js';

/**
 * The template as the renderer sees it: only the nodes that are not copied verbatim
 * (expressions and tags), each with its offsets in the file. Text between them is taken from
 * the source itself, so markdown survives byte for byte. Both MDX nodes and JSX inside
 * expressions (ForEach bodies) become this one shape.
 */
export interface IrExpression {
  kind: 'expression';
  start: number;
  end: number;
  /** Undefined for `{/* comment *\/}` and `{}`. */
  expression: EsNode | undefined;
  /** Written as an attribute of a pass-through tag: rendered in quotes. */
  quoted?: boolean;
}
export interface IrAttribute {
  name: string;
  start: number;
  end: number;
  value: string | true | IrExpression;
}
export interface IrElement {
  kind: 'element';
  /** '' for a fragment `<>…</>`. */
  name: string;
  start: number;
  end: number;
  innerStart: number;
  innerEnd: number;
  attributes: IrAttribute[];
  children: IrNode[];
}
export type IrNode = IrExpression | IrElement;
export interface IrEsm {
  start: number;
  end: number;
  program: EsProgram | undefined;
}

interface MdPoint { line: number; column: number; offset?: number }
interface MdAttributeValue { type: string; value: string; data?: { estree?: EsProgram | null } }
interface MdAttribute { type: string; name?: string; value?: string | null | MdAttributeValue; position?: { start: MdPoint; end: MdPoint } }
/** The few mdast fields read here; the MDX parser's own types are not depended on. */
export interface MdNode {
  type: string;
  name?: string | null;
  value?: unknown;
  position?: { start: MdPoint; end: MdPoint };
  children?: MdNode[];
  attributes?: MdAttribute[];
  data?: { estree?: EsProgram | null };
}

export interface IrContext {
  file: string;
  source: string;
  lines: LineIndex;
}

export function syntaxError(ctx: IrContext, offset: number, code: `PROMPT_${string}`, message: string, hint?: string): PromptSyntaxError {
  return new PromptSyntaxError(code, message, { location: { file: ctx.file, ...ctx.lines.at(offset) }, ...(hint ? { hint } : {}) });
}

const offsetOf = (point: MdPoint | undefined): number => point?.offset ?? 0;

/** Converts the parsed body into IR nodes (top level) and its import/export statements. */
export function mdastToIr(ctx: IrContext, root: MdNode): { nodes: IrNode[]; esm: IrEsm[] } {
  const nodes: IrNode[] = [];
  const esm: IrEsm[] = [];
  for (const child of root.children ?? []) collect(ctx, child, nodes, esm);
  return { nodes, esm };
}

/** The IR of one top-level node of the body: mdastToIr is these, concatenated in order. */
export function blockToIr(ctx: IrContext, block: MdNode): { nodes: IrNode[]; esm: IrEsm[] } {
  const nodes: IrNode[] = [];
  const esm: IrEsm[] = [];
  collect(ctx, block, nodes, esm);
  return { nodes, esm };
}

function collect(ctx: IrContext, node: MdNode, out: IrNode[], esm: IrEsm[]): void {
  const start = offsetOf(node.position?.start);
  const end = offsetOf(node.position?.end);
  switch (node.type) {
    case 'mdxjsEsm':
      esm.push({ start, end, program: node.data?.estree ?? undefined });
      return;
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      out.push({ kind: 'expression', start, end, expression: programExpression(ctx, node.data?.estree, start) });
      return;
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      out.push(mdElement(ctx, node, start, end, esm));
      return;
    default:
      for (const child of node.children ?? []) collect(ctx, child, out, esm);
  }
}

function mdElement(ctx: IrContext, node: MdNode, start: number, end: number, esm: IrEsm[]): IrElement {
  const attributes: IrAttribute[] = [];
  for (const attribute of node.attributes ?? []) {
    const aStart = offsetOf(attribute.position?.start);
    const aEnd = offsetOf(attribute.position?.end);
    if (attribute.type !== 'mdxJsxAttribute' || attribute.name === undefined) {
      throw syntaxError(ctx, aStart, 'PROMPT_UNSUPPORTED_SYNTAX', 'spread attributes ({...x}) are not supported');
    }
    const value = attribute.value;
    let irValue: IrAttribute['value'];
    if (value === null || value === undefined) irValue = true;
    else if (typeof value === 'string') irValue = value;
    else {
      const open = ctx.source.indexOf('{', aStart);
      irValue = { kind: 'expression', start: open, end: aEnd, expression: programExpression(ctx, value.data?.estree, open) };
    }
    attributes.push({ name: attribute.name, start: aStart, end: aEnd, value: irValue });
  }
  // The opening tag ends at the first `>` after the last attribute (attribute text may hold `>`).
  const last = attributes[attributes.length - 1];
  const close = ctx.source.indexOf('>', last ? last.end : start + 1);
  const selfClosing = close + 1 === end && /\/\s*$/.test(ctx.source.slice(last ? last.end : start + 1, close));
  const innerStart = selfClosing ? end : close + 1;
  const innerEnd = selfClosing ? end : Math.max(innerStart, ctx.source.lastIndexOf('<', end - 1));
  const children: IrNode[] = [];
  for (const child of node.children ?? []) collect(ctx, child, children, esm);
  return { kind: 'element', name: node.name ?? '', start, end, innerStart, innerEnd, attributes, children };
}

function programExpression(ctx: IrContext, program: EsProgram | null | undefined, offset: number): EsNode | undefined {
  if (!program || program.body.length === 0) return undefined;
  const statement = program.body[0];
  if (program.body.length > 1 || statement?.type !== 'ExpressionStatement' || !statement.expression) {
    throw syntaxError(ctx, statement?.start ?? offset, 'PROMPT_UNSUPPORTED_SYNTAX', 'an expression {…} must hold a single expression, not statements');
  }
  return statement.expression;
}

const jsxCache = new WeakMap<EsJsxElement | EsJsxFragment, IrElement>();

/** The IR of JSX written inside an expression (a ForEach body, a ternary branch). Cached per node. */
export function jsxToIr(ctx: IrContext, node: EsJsxElement | EsJsxFragment): IrElement {
  const cached = jsxCache.get(node);
  if (cached) return cached;
  const children: IrNode[] = [];
  for (const child of node.children) jsxChild(ctx, child, children);
  let result: IrElement;
  if (node.type === 'JSXFragment') {
    result = {
      kind: 'element', name: '', start: node.start, end: node.end,
      innerStart: node.openingFragment.end, innerEnd: node.closingFragment.start, attributes: [], children,
    };
  } else {
    const opening = node.openingElement;
    const attributes: IrAttribute[] = opening.attributes.map((attribute) => {
      if (attribute.type !== 'JSXAttribute') {
        throw syntaxError(ctx, attribute.start, 'PROMPT_UNSUPPORTED_SYNTAX', 'spread attributes ({...x}) are not supported');
      }
      const name = jsxName(attribute.name);
      const value = attribute.value;
      let irValue: IrAttribute['value'];
      if (value === null) irValue = true;
      else if (value.type === 'Literal') irValue = String(value.value);
      else if (value.type === 'JSXExpressionContainer') {
        irValue = { kind: 'expression', start: value.start, end: value.end, expression: value.expression.type === 'JSXEmptyExpression' ? undefined : value.expression };
      } else {
        irValue = { kind: 'expression', start: value.start, end: value.end, expression: value };
      }
      return { name, start: attribute.start, end: attribute.end, value: irValue };
    });
    const end = node.closingElement ? node.closingElement.start : node.end;
    result = {
      kind: 'element', name: jsxName(opening.name), start: node.start, end: node.end,
      innerStart: opening.selfClosing ? node.end : opening.end, innerEnd: end, attributes, children,
    };
  }
  jsxCache.set(node, result);
  return result;
}

function jsxChild(ctx: IrContext, child: EsJsxChild, out: IrNode[]): void {
  switch (child.type) {
    case 'JSXText':
      return;
    case 'JSXExpressionContainer':
      out.push({ kind: 'expression', start: child.start, end: child.end, expression: child.expression.type === 'JSXEmptyExpression' ? undefined : child.expression });
      return;
    case 'JSXElement':
    case 'JSXFragment':
      out.push(jsxToIr(ctx, child));
      return;
    default:
      throw syntaxError(ctx, child.start, 'PROMPT_UNSUPPORTED_SYNTAX', `${child.type} is not supported`);
  }
}

function jsxName(name: EsJsxName): string {
  if (name.type === 'JSXIdentifier') return name.name;
  if (name.type === 'JSXNamespacedName') return `${name.namespace.name}:${name.name.name}`;
  return `${jsxName(name.object)}.${name.property.name}`;
}
