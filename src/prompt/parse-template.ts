import { PromptSyntaxError } from '../errors/index.js';
import { LineIndex } from './line-index.js';
import { MAX_TAG_DEPTH, tagsTooDeepAt } from './tag-depth.js';
import { mdastToIr, type IrContext, type IrNode, type MdNode } from './template-ir.js';
import { parseBodyIncrementally, type BodyParser } from './incremental-body.js';
import { overlaidText } from '../source-overlay.js';
import type { ParsedBody, TemplateCache } from './template-cache.js';
import type { Template } from './template.js';

export interface MdxProcessor {
  parse(text: string): unknown;
}
let processorPromise: Promise<MdxProcessor> | undefined;

/**
 * The MDX parser (remark-parse with remark-mdx's syntax: the tree `@mdx-js/mdx` parses, without
 * its compiler, which would triple what loads), loaded on first use: most commands never need it.
 */
export function mdxProcessor(): Promise<MdxProcessor> {
  processorPromise ??= Promise.all([import('unified'), import('remark-parse'), import('remark-mdx')]).then(
    ([{ unified }, { default: remarkParse }, { default: remarkMdx }]) => unified().use(remarkParse).use(remarkMdx),
  );
  return processorPromise;
}

/**
 * `<Raw>` content is literal, so it must not be parsed as MDX (a JSON example would be a
 * broken expression). It is blanked for the parser with offsets kept; rendering slices the
 * original text. Raw tags nest: a `<Raw>` inside one is part of its literal text.
 */
function blankRaw(text: string): string {
  const tags = /<(\/?)Raw\s*>/g;
  let out = '';
  let copied = 0;
  let depth = 0;
  let innerStart = 0;
  for (let match = tags.exec(text); match !== null; match = tags.exec(text)) {
    if (match[1] === '') {
      if (depth++ === 0) innerStart = match.index + match[0].length;
    } else if (depth > 0 && --depth === 0) {
      out += text.slice(copied, innerStart) + text.slice(innerStart, match.index).replace(/[^\n]/g, ' ');
      copied = match.index;
    }
  }
  return out + text.slice(copied);
}

interface VFileMessageLike {
  reason?: string;
  message?: string;
  line?: number;
  column?: number;
  place?: { line?: number; column?: number; offset?: number; start?: { line?: number; column?: number } };
}

/**
 * Parses a body whose frontmatter is already blanked (same offsets as the file), so every
 * position the parser reports is the file's own line:column.
 */
export async function parseTemplate(file: string, source: string, bodyStart: number, cache?: TemplateCache): Promise<Template> {
  const lines = new LineIndex(source);
  const ctx = { file, source, lines };
  // An editor's open buffer (the language server) is parsed again at each edit: only the top-level
  // blocks an edit touched are (incremental-body.ts); everything else parses the whole body.
  const { nodes, esm } = (await cache?.get(source)) ?? (cache === undefined && overlaidText(file) !== undefined ? await parseBodyIncrementally(ctx, wholeBody) : await parseBody(ctx, cache));
  // Imports render as nothing and, alone on their lines, take their lines with them.
  const imports = esm.map((e): IrNode => ({ kind: 'expression', start: e.start, end: e.end, expression: undefined }));
  const bodyNodes = [...nodes, ...imports].sort((a, b) => a.start - b.start);
  return { ...ctx, nodes, esm, bodyNodes, bodyStart, components: new Map() };
}

/** The MDX parse and its IR; a body that parses cleanly is stored in `cache`. */
async function parseBody(ctx: IrContext, cache: TemplateCache | undefined): Promise<ParsedBody> {
  const tree = await parseTree(ctx, parserText(ctx));
  const body = toIr(ctx, () => mdastToIr(ctx, tree));
  await cache?.set(ctx.source, body);
  return body;
}

/** What the incremental parse of an open buffer falls back to. */
const wholeBody: BodyParser = {
  text: parserText,
  tree: parseTree,
  raw: async (text) => (await mdxProcessor()).parse(text) as MdNode,
  ir: toIr,
};

/** The text the MDX parser is given: `<Raw>` content blanked; tags nested too deep are an error. */
export function parserText(ctx: IrContext): string {
  const { file, source, lines } = ctx;
  const text = blankRaw(source);
  const deepTag = tagsTooDeepAt(text, MAX_TAG_DEPTH);
  if (deepTag !== undefined) {
    throw new PromptSyntaxError('PROMPT_TOO_DEEP', `tags are nested deeper than ${MAX_TAG_DEPTH} levels`, {
      location: { file, ...lines.at(deepTag) },
      hint: 'flatten the template: an <ElseIf> chain instead of nested <If>s, or a component for a repeated part',
    });
  }
  return text;
}

/** The whole body's MDX tree; a parser error becomes ours, at the file's line:column. */
export async function parseTree(ctx: IrContext, text: string): Promise<MdNode> {
  const processor = await mdxProcessor();
  try {
    return processor.parse(text) as MdNode;
  } catch (error) {
    throw mdxError(ctx.file, ctx.source, ctx.lines, error);
  }
}

/** Runs the conversion to IR; running out of stack there is the same error as in the parser. */
export function toIr<T>(ctx: IrContext, convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(ctx.file, ctx.source, ctx.lines, error);
    throw error;
  }
}

function tooDeep(file: string, source: string, lines: LineIndex, cause: unknown): PromptSyntaxError {
  const offset = longestExpression(source);
  return new PromptSyntaxError('PROMPT_TOO_DEEP', 'expression is nested too deeply to parse', {
    location: { file, ...(offset === undefined ? {} : lines.at(offset)) },
    hint: 'the MDX parser ran out of stack; split the expression or flatten the props',
    cause,
  });
}

/**
 * The parser's stack overflow does not say where it happened; the longest `{…}` is by far the
 * likeliest culprit (a hostile 10,000-segment path), so the error points there.
 */
function longestExpression(source: string): number | undefined {
  let best: number | undefined;
  let bestLength = 0;
  let depth = 0;
  let open = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (char === '}' && depth > 0) {
      depth--;
      if (depth === 0 && i - open > bestLength) {
        best = open;
        bestLength = i - open;
      }
    }
  }
  return depth > 0 && source.length - open > bestLength ? open : best;
}

function mdxError(file: string, source: string, lines: LineIndex, error: unknown): PromptSyntaxError {
  if (error instanceof RangeError) return tooDeep(file, source, lines, error);
  const message = error as VFileMessageLike;
  let text = message.reason ?? message.message ?? String(error);
  const cause = (error as { cause?: unknown }).cause;
  // "Could not parse expression with acorn" alone does not say what is wrong; acorn's reason does.
  if (cause instanceof Error && !text.includes(cause.message)) text += `: ${cause.message}`;
  let line = message.line ?? message.place?.line ?? message.place?.start?.line;
  let column = message.column ?? message.place?.column ?? message.place?.start?.column;
  // Some parser messages carry their position only inside the text, as "(3:1-3:7)".
  const inText = /\s*\((\d+):(\d+)-\d+:\d+\)$/.exec(text);
  if (line === undefined && inText) {
    line = Number(inText[1]);
    column = Number(inText[2]);
    text = text.slice(0, inText.index);
  }
  // The parser points at where it gave up (often the end of the paragraph); the brace that was
  // never closed is what the author needs to see.
  const offset = message.place?.offset;
  if (/closing brace/.test(text) && offset !== undefined) {
    const open = unclosedBrace(source, offset);
    if (open !== undefined) ({ line, column } = lines.at(open));
  }
  const expression = ACORN.test(text) ? enclosingExpression(source, offset ?? offsetOf(lines, source, line, column)) : undefined;
  if (expression !== undefined) {
    const reason = text.replace(ACORN, '').replace(/^:\s*/, '');
    const message = `cannot parse the expression ${expression}${reason ? `: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` : ''}`;
    return new PromptSyntaxError('PROMPT_EXPRESSION_SYNTAX', message, {
      location: { file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) },
      hint: 'a {…} holds one JavaScript expression, e.g. {props.name} or {upper(props.name)}; write literal braces inside <Raw>…</Raw>',
      cause: error,
    });
  }
  const hint = /brace/i.test(text) ? 'write literal braces inside <Raw>…</Raw>' : undefined;
  return new PromptSyntaxError('PROMPT_MDX_SYNTAX', text, {
    location: { file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) },
    ...(hint ? { hint } : {}),
    cause: error,
  });
}

/** The MDX parser's words for an expression acorn refused; ours name the expression instead. */
const ACORN = /^Could not parse expression with acorn/;

/** The offset of a 1-based line:column, for parser messages that give no offset. */
function offsetOf(lines: LineIndex, source: string, line: number | undefined, column: number | undefined): number | undefined {
  if (line === undefined || column === undefined) return undefined;
  // Walk to the line start: LineIndex maps offsets to lines, not back.
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf('\n', offset);
    if (next < 0) return undefined;
    offset = next + 1;
  }
  const at = offset + column - 1;
  return lines.at(at).line === line ? at : undefined;
}

/**
 * The `{…}` around `offset` as one line (whitespace runs shown as one space, control characters
 * escaped), cut to 60 characters; undefined when no brace encloses it.
 */
function enclosingExpression(source: string, offset: number | undefined): string | undefined {
  if (offset === undefined) return undefined;
  // The parser may point at the closing brace itself.
  const open = source[offset] === '}' ? unclosedBrace(source, offset) : unclosedBrace(source, offset + 1);
  if (open === undefined) return undefined;
  let depth = 0;
  let close = source.length - 1;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) {
      close = i;
      break;
    }
  }
  const text = source
    .slice(open, close + 1)
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function unclosedBrace(source: string, offset: number): number | undefined {
  let depth = 0;
  for (let i = Math.min(offset, source.length) - 1; i >= 0; i--) {
    if (source[i] === '}') depth++;
    else if (source[i] === '{') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return undefined;
}
