import { TemplateError, didYouMean } from '../errors/index.js';
import type { ContentPart, PromptKind } from './types.js';
import type { EsJsxElement, EsJsxFragment, EsNode } from './estree.js';
import { evaluate, templateError, type EvalContext } from './evaluate.js';
import { childrenYieldFields } from './find-tags.js';
import type { FilterSet } from './filters.js';
import { blockInner, dedentSlice, indentLines, lineIndent, minIndent, normalizeBlock, wholeLineSpan, type LineSpan } from './layout.js';
import { jsxToIr, type IrElement, type IrExpression, type IrNode } from './template-ir.js';
import { BUILT_IN_TAGS, fieldTagsFor, isPassThrough, knownTags, type Template } from './template.js';
import { Markup, toText } from './values.js';

/** Components nested deeper than this are taken for runaway recursion. */
export const MAX_COMPONENT_DEPTH = 32;
/** Upper bound on nodes rendered per render() call, against exponential component fan-out. */
export const MAX_RENDERED_NODES = 2_000_000;

export interface RenderState {
  template: Template;
  props: Record<string, unknown>;
  locals: ReadonlyMap<string, unknown>;
  depth: number;
  /** Set while rendering a <User>: attachments found are collected here. */
  attachments: ContentPart[] | undefined;
  budget: { nodes: number };
  kind: PromptKind;
  /** Role and prompt tags met so far, in document order, wherever they stand. */
  fields: RenderedField[];
  /** The role or prompt tag being rendered, if any: another one cannot go inside it. */
  inside: string | undefined;
  filters: FilterSet;
}

/** The rendered content of one role tag (a message) or prompt tag. */
export interface RenderedField {
  tag: string;
  content: string | ContentPart[];
  file: string;
  offset: number;
}

const BLOCK_TAGS = new Set(['If', 'ElseIf', 'Else', 'ForEach', 'Raw', 'ImageAttachment', 'FileAttachment']);

function fail(state: RenderState, offset: number, code: `TEMPLATE_${string}`, message: string, hint?: string): TemplateError {
  return templateError(evalContext(state), offset, code, message, hint);
}

export function evalContext(state: RenderState): EvalContext {
  return {
    file: state.template.file,
    lines: state.template.lines,
    props: state.props,
    locals: state.locals,
    renderJsx: (node: EsJsxElement | EsJsxFragment) => renderElement(state, jsxToIr(state.template, node), 0, undefined),
    filters: state.filters,
  };
}

function evaluateIn(state: RenderState, node: EsNode): unknown {
  return evaluate(evalContext(state), node);
}

/**
 * The source text of [start, end) with every expression and tag replaced by its output.
 * `dedent` is the indentation removed from each verbatim line.
 */
export function renderRange(state: RenderState, start: number, end: number, nodes: readonly IrNode[], dedent: number): string {
  const source = state.template.source;
  let out = '';
  let position = start;
  let i = 0;
  while (i < nodes.length) {
    const node = nodes[i] as IrNode;
    if (node.start < position || node.end > end) {
      i++;
      continue;
    }
    if (++state.budget.nodes > MAX_RENDERED_NODES) {
      throw fail(state, node.start, 'TEMPLATE_TOO_LARGE', `rendering visits more than ${MAX_RENDERED_NODES} nodes`, 'check for components that include each other many times');
    }
    const isBlock = node.kind === 'expression' ? node.expression === undefined : BLOCK_TAGS.has(node.name);
    const span = isBlock ? wholeLineSpan(source, node.start, node.end, position, end) : undefined;
    out += dedentSlice(source, position, span ? span.start : node.start, dedent);
    if (node.kind === 'element' && node.name === 'If') {
      const chain = [node];
      let j = i + 1;
      let last = span?.end ?? node.end;
      while (j < nodes.length) {
        const next = nodes[j] as IrNode;
        if (next.kind !== 'element' || (next.name !== 'ElseIf' && next.name !== 'Else') || !/^\s*$/.test(source.slice(last, next.start))) break;
        chain.push(next);
        last = wholeLineSpan(source, next.start, next.end, last, end)?.end ?? next.end;
        j++;
        if (next.name === 'Else') break;
      }
      const taken = chain.find((branch) => branch.name === 'Else' || condition(state, branch) === true);
      if (taken) {
        const takenSpan = wholeLineSpan(source, taken.start, taken.end, 0, end);
        out += block(state, taken, takenSpan, dedent, (s, e, d) => renderRange(state, s, e, taken.children, d));
      }
      position = last;
      i = j;
      continue;
    }
    out += node.kind === 'expression' ? renderExpression(state, node) : renderElement(state, node, dedent, span);
    position = span ? span.end : node.end;
    i++;
  }
  return out + dedentSlice(source, position, end, dedent);
}

function condition(state: RenderState, element: IrElement): unknown {
  const attribute = element.attributes.find((a) => a.name === 'condition');
  if (!attribute) throw fail(state, element.start, 'TEMPLATE_MISSING_ATTRIBUTE', `<${element.name}> needs a condition={…} attribute`);
  return attributeValue(state, attribute.value);
}

export function attributeValue(state: RenderState, value: IrElement['attributes'][number]['value']): unknown {
  if (typeof value === 'string' || value === true) return value;
  return value.expression ? evaluateIn(state, value.expression) : undefined;
}

function renderExpression(state: RenderState, node: IrExpression): string {
  if (!node.expression) return '';
  if (node.expression.type === 'ArrowFunctionExpression') {
    throw fail(state, node.expression.start, 'TEMPLATE_UNSUPPORTED_SYNTAX', 'a function is only allowed as the child of <ForEach>');
  }
  const text = toText(evaluateIn(state, node.expression));
  return node.quoted ? `"${text.replace(/"/g, '&quot;')}"` : text;
}

/**
 * Output of a block tag's content. Standing alone on its lines, the tag lines are dropped and
 * the content is re-indented to the tag's level; inline, the content is used as written.
 */
function block(state: RenderState, element: IrElement, span: LineSpan | undefined, dedent: number, render: (start: number, end: number, dedent: number) => string): string {
  if (!span) return render(element.innerStart, element.innerEnd, dedent);
  const source = state.template.source;
  const inner = blockInner(source, element.innerStart, element.innerEnd);
  const extra = Math.max(0, minIndent(source, inner.start, inner.end) - span.indent);
  const text = render(inner.start, inner.end, dedent + extra);
  return span.newline && text !== '' && !text.endsWith('\n') ? `${text}\n` : text;
}

export function renderElement(state: RenderState, element: IrElement, dedent: number, span: LineSpan | undefined): string {
  const name = element.name;
  if (isPassThrough(name)) {
    if (name === '') return renderRange(state, element.innerStart, element.innerEnd, element.children, dedent);
    const quoted = element.attributes.flatMap((a) => (typeof a.value === 'object' ? [{ ...a.value, quoted: true }] : []));
    return renderRange(state, element.start, element.end, [...quoted, ...element.children], dedent);
  }
  switch (name) {
    case 'Raw':
      return block(state, element, span, dedent, (s, e, d) => dedentSlice(state.template.source, s, e, d));
    case 'ForEach':
      return renderForEach(state, element, dedent, span);
    case 'ImageAttachment':
    case 'FileAttachment':
      collectAttachment(state, element);
      return '';
    case 'ElseIf':
    case 'Else':
      throw fail(state, element.start, 'TEMPLATE_ORPHAN_BRANCH', `<${name}> must directly follow an <If> or <ElseIf>`);
    case 'System':
    case 'User':
    case 'Assistant':
    case 'ImagePrompt':
    case 'SpeechPrompt':
      return renderField(state, element);
    default:
      return renderComponent(state, element, dedent, span);
  }
}

function renderForEach(state: RenderState, element: IrElement, dedent: number, span: LineSpan | undefined): string {
  const arrAttribute = element.attributes.find((a) => a.name === 'arr');
  const items = arrAttribute ? attributeValue(state, arrAttribute.value) : undefined;
  const child = element.children.find((c): c is IrExpression => c.kind === 'expression' && c.expression !== undefined);
  const fn = child?.expression;
  if (!fn || fn.type !== 'ArrowFunctionExpression' || (fn.body.type !== 'JSXFragment' && fn.body.type !== 'JSXElement')) {
    throw fail(state, element.start, 'TEMPLATE_FOREACH_CHILD', '<ForEach> needs one child function returning JSX', 'write {(item, index) => <>…</>}');
  }
  if (!Array.isArray(items)) return '';
  const names = fn.params.map((p) => (p.type === 'Identifier' ? p.name : ''));
  const body = jsxToIr(state.template, fn.body);
  const outputs: string[] = [];
  items.forEach((item: unknown, index: number) => {
    const locals = new Map(state.locals);
    if (names[0]) locals.set(names[0], item);
    if (names[1]) locals.set(names[1], index);
    const inner: RenderState = { ...state, locals };
    // A fragment body is laid out against the ForEach tag's own line, not the fragment's.
    if (body.name === '') outputs.push(block(inner, body, span, dedent, (s, e, d) => renderRange(inner, s, e, body.children, d)));
    else outputs.push(renderSingle(inner, body, dedent));
  });
  if (body.name === '') return outputs.join('');
  // `(item) => <Tag …/>` is read as `(item) => <><Tag …/></>`: on its own lines, one item per
  // line; a component's output is a block of markdown, so items are paragraphs (as in AgentMark).
  const shown = outputs.map((o) => (span ? o.replace(/\s+$/, '') : o)).filter((o) => o !== '');
  if (!span) return shown.join('');
  const isComponent = !isPassThrough(body.name) && !BUILT_IN_TAGS.includes(body.name);
  const text = shown.join(isComponent ? '\n\n' : '\n');
  return span.newline && text !== '' ? `${text}\n` : text;
}

/** One element returned by a ForEach function, rendered from the start of its line. */
function renderSingle(state: RenderState, body: IrElement, dedent: number): string {
  const source = state.template.source;
  const lineStart = source.lastIndexOf('\n', body.start - 1) + 1;
  const alone = /^[ \t]*$/.test(source.slice(lineStart, body.start));
  return renderRange(state, alone ? lineStart : body.start, body.end, [body], alone ? Math.max(dedent, body.start - lineStart) : dedent);
}

/**
 * A role or prompt tag, wherever it stands (in a loop, a branch, a component): its content
 * becomes a field in document order and it prints nothing where it stands.
 */
function renderField(state: RenderState, element: IrElement): string {
  const name = element.name;
  if (state.inside !== undefined) {
    throw fail(state, element.start, 'TEMPLATE_NESTED_ROLE', `<${name}> cannot be inside <${state.inside}>`, 'close the first tag before opening the next');
  }
  const allowed = fieldTagsFor(state.kind);
  if (!allowed.includes(name)) {
    throw fail(state, element.start, 'TEMPLATE_TAG_NOT_FOR_KIND', `<${name}> is not used in ${state.kind} prompts`, `use ${allowed.map((t) => `<${t}>`).join(', ')}`);
  }
  if (name === 'System' && (state.kind === 'text' || state.kind === 'object')) {
    const before = state.fields[0];
    if (before) throw fail(state, element.start, 'TEMPLATE_SYSTEM_NOT_FIRST', `<System> must be the first message, but it comes after a <${before.tag}>`);
  }
  const attachments: ContentPart[] | undefined = name === 'User' ? [] : undefined;
  const inner: RenderState = { ...state, inside: name, attachments };
  // Indentation common to the tag's lines is layout, not content.
  const dedent = minIndent(state.template.source, element.innerStart, element.innerEnd);
  const text = normalizeBlock(renderRange(inner, element.innerStart, element.innerEnd, element.children, dedent));
  const content = attachments && attachments.length > 0 ? [...(text ? [{ type: 'text' as const, text }] : []), ...attachments] : text;
  state.fields.push({ tag: name, content, file: state.template.file, offset: element.start });
  return '';
}

function collectAttachment(state: RenderState, element: IrElement): void {
  if (!state.attachments) {
    throw fail(state, element.start, 'TEMPLATE_ATTACHMENT_OUTSIDE_USER', `<${element.name}> is only allowed inside <User>`);
  }
  const read = (name: string): string | undefined => {
    const attribute = element.attributes.find((a) => a.name === name);
    if (!attribute) return undefined;
    const value = attributeValue(state, attribute.value);
    return value === undefined || value === null ? undefined : toText(value);
  };
  const need = (name: string): string => {
    const value = read(name);
    if (value === undefined || value === '') throw fail(state, element.start, 'TEMPLATE_MISSING_ATTRIBUTE', `<${element.name}> needs a ${name}="…" attribute`);
    return value;
  };
  if (element.name === 'ImageAttachment') {
    const mimeType = read('mimeType');
    state.attachments.push({ type: 'image', image: need('image'), ...(mimeType ? { mimeType } : {}) });
  } else {
    state.attachments.push({ type: 'file', data: need('data'), mimeType: need('mimeType') });
  }
}

function renderComponent(state: RenderState, element: IrElement, dedent: number, span: LineSpan | undefined): string {
  const component = state.template.components.get(element.name);
  if (!component) {
    const known = knownTags(state.template, state.kind);
    throw fail(state, element.start, 'TEMPLATE_UNKNOWN_TAG', `unknown tag <${element.name}>`, `${didYouMean(element.name, known) ?? ''} known tags: ${known.join(', ')}`.trim());
  }
  if (state.depth >= MAX_COMPONENT_DEPTH) {
    throw fail(state, element.start, 'TEMPLATE_COMPONENT_DEPTH', `components are nested more than ${MAX_COMPONENT_DEPTH} deep at <${element.name}>`);
  }
  const props: Record<string, unknown> = {};
  for (const attribute of element.attributes) {
    // defineProperty: an attribute named __proto__ must stay data, never become a prototype.
    Object.defineProperty(props, attribute.name, { value: attributeValue(state, attribute.value), enumerable: true, writable: true, configurable: true });
  }
  if (element.innerEnd > element.innerStart) {
    // Children keep their meaning: laid out from their own first line, so a markdown list
    // stays a list wherever the component is placed.
    const renderChildren = (): string => {
      const inner = blockInner(state.template.source, element.innerStart, element.innerEnd);
      return normalizeBlock(renderRange(state, inner.start, inner.end, element.children, dedent));
    };
    // Role tags among the children produce their messages where {props.children} is printed.
    props['children'] = childrenYieldFields(state.template, element) ? new Markup(renderChildren) : renderChildren();
  }
  const inner: RenderState = { ...state, template: component, props, locals: new Map(), depth: state.depth + 1 };
  const output = renderRange(inner, component.bodyStart, component.source.length, component.bodyNodes, 0).trim();
  // A component alone on its line, indented (e.g. under a list item), keeps every line of its
  // output at that indentation, not only the first.
  const indent = span ? span.indent : lineIndent(state.template.source, element.start);
  return indentLines(output, Math.max(0, (indent ?? 0) - dedent));
}
