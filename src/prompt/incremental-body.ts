import { LineIndex } from './line-index.js';
import { blockToIr, type IrContext, type IrEsm, type IrNode, type MdNode } from './template-ir.js';
import type { ParsedBody } from './template-cache.js';

/** The whole-body parse of parse-template.ts, which this one falls back to and must agree with. */
export interface BodyParser {
  /** The text the MDX parser sees (`<Raw>` blanked); throws when tags nest too deep. */
  text(ctx: IrContext): string;
  /** The tree of the whole body; a parser error is thrown as the prompt's syntax error. */
  tree(ctx: IrContext, text: string): Promise<MdNode>;
  /** The parser itself, errors as it throws them (a part that does not parse is parsed whole). */
  raw(text: string): Promise<MdNode>;
  /** Runs the conversion to IR, running out of stack reported as the parser's error. */
  ir<T>(ctx: IrContext, convert: () => T): T;
}

/** One top-level node of the body (a paragraph, a role tag, an import...) and its IR. */
interface Block {
  start: number;
  end: number;
  nodes: IrNode[];
  esm: IrEsm[];
}

interface BodyState {
  /** What the parser saw, and the source the IR was read from (same offsets). */
  text: string;
  source: string;
  blocks: Block[];
}

/** The last parse of each open buffer, most recently used last. */
const states = new Map<string, BodyState>();
const MAX_FILES = 32;

/** How each file's last body was parsed: in part (its state reused) or whole. For tests and the bench. */
const lastParse = new Map<string, 'part' | 'whole'>();
export function lastBodyParse(file: string): 'part' | 'whole' | undefined {
  return lastParse.get(file);
}

/**
 * The language server's parse of an open buffer: the top-level blocks an edit touched are parsed
 * again (with the unchanged block before and after them, which must come out as they were), and
 * the IR of every other block is reused, moved by the edit's length. Anything this cannot show
 * to be the same as a whole parse (a parse error, a block boundary the edit moved, a link
 * definition, which other blocks read) parses the whole body, as parse-template.ts does, so the
 * result and every error are exactly a whole parse's.
 */
export async function parseBodyIncrementally(ctx: IrContext, parser: BodyParser): Promise<ParsedBody> {
  const text = parser.text(ctx);
  // The last body that parsed: a text that does not parse leaves it, so the edit that mends the
  // text is again parsed in part.
  const previous = states.get(ctx.file);
  let blocks: Block[] | undefined;
  if (previous !== undefined) {
    try {
      blocks = await reparse(ctx, previous, text, parser);
    } catch {
      blocks = undefined;
    }
  }
  lastParse.delete(ctx.file);
  lastParse.set(ctx.file, blocks === undefined ? 'whole' : 'part');
  if (lastParse.size > MAX_FILES) lastParse.delete(lastParse.keys().next().value as string);
  if (blocks === undefined) {
    const tree = await parser.tree(ctx, text);
    blocks = parser.ir(ctx, () => splitBlocks(ctx, tree));
    // A tree without offsets cannot be split: converted whole, and not kept.
    if (blocks === undefined) return joined(parser.ir(ctx, () => (tree.children ?? []).map((child) => blockToIr(ctx, child))));
  }
  states.delete(ctx.file);
  states.set(ctx.file, { text, source: ctx.source, blocks });
  if (states.size > MAX_FILES) states.delete(states.keys().next().value as string);
  return joined(blocks);
}

/** The body's IR: its blocks', in order (as mdastToIr makes it). */
function joined(blocks: ReadonlyArray<{ nodes: IrNode[]; esm: IrEsm[] }>): ParsedBody {
  return { nodes: blocks.flatMap((b) => b.nodes), esm: blocks.flatMap((b) => b.esm) };
}

/** The root's children as blocks, or undefined when one has no offsets. */
function splitBlocks(ctx: IrContext, tree: MdNode): Block[] | undefined {
  const blocks: Block[] = [];
  for (const child of tree.children ?? []) {
    const start = child.position?.start.offset;
    const end = child.position?.end.offset;
    const ir = blockToIr(ctx, child);
    if (start === undefined || end === undefined) return undefined;
    blocks.push({ start, end, ...ir });
  }
  return blocks;
}

/** Markdown link definitions are read by every other block: a body holding one is parsed whole. */
const DEFINITION = /^[ \t]{0,3}\[(?:[^\]\\\n]|\\.)+\]:/m;

const isEol = (char: string | undefined): boolean => char === '\n' || char === '\r';

/** Line endings as the MDX parser counts them (CRLF is one). */
function lineEndings(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) count++;
  }
  return count;
}

function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && !isEol(text[i - 1])) i--;
  return i;
}

function lineEnd(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && !isEol(text[i])) i++;
  return i;
}

/** The new blocks, or undefined when only a whole parse can say. */
async function reparse(ctx: IrContext, previous: BodyState, text: string, parser: BodyParser): Promise<Block[] | undefined> {
  const { blocks } = previous;
  const source = ctx.source;
  if (text === previous.text && source === previous.source) return blocks;
  if (blocks.length === 0 || DEFINITION.test(text) || DEFINITION.test(previous.text)) return undefined;
  const oldText = previous.text;
  const oldSource = previous.source;
  // The edit: what lies between the longest common start and end of both texts.
  const shorter = Math.min(text.length, oldText.length);
  let prefix = 0;
  while (prefix < shorter && text[prefix] === oldText[prefix] && source[prefix] === oldSource[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && text[text.length - 1 - suffix] === oldText[oldText.length - 1 - suffix] && source[source.length - 1 - suffix] === oldSource[oldSource.length - 1 - suffix]) suffix++;
  const oldEnd = oldText.length - suffix;
  const newEnd = text.length - suffix;
  // A CRLF cut in two by the edit's bounds would count its lines differently.
  if (text[prefix - 1] === '\r' || text[newEnd - 1] === '\r' || oldText[oldEnd - 1] === '\r') return undefined;
  const delta = text.length - oldText.length;
  const lineDelta = lineEndings(text.slice(prefix, newEnd)) - lineEndings(oldText.slice(prefix, oldEnd));

  // Blocks first..last are touched by the edit: on its lines, or ending on the line before or
  // starting on the line after (a paragraph runs on into the next line; a line can underline the
  // one above). The block before them and the one after are parsed again too and must come out
  // as they were, which shows the edit moved no block boundary.
  const at = lineStart(oldText, prefix);
  const from = at - (oldText[at - 1] === '\n' && oldText[at - 2] === '\r' ? 2 : 1);
  const end = lineEnd(oldText, oldEnd);
  const to = end + (oldText[end] === '\r' && oldText[end + 1] === '\n' ? 2 : 1);
  let first = blocks.findIndex((b) => b.end >= from);
  if (first < 0) first = blocks.length;
  let last = -1;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if ((blocks[i]?.start ?? Infinity) <= to) {
      last = i;
      break;
    }
  }
  const before = first > 0 ? blocks[first - 1] : undefined;
  const after = last + 1 < blocks.length ? blocks[last + 1] : undefined;
  const lo = first > 0 ? first - 1 : 0;
  const hi = after !== undefined ? last + 1 : blocks.length - 1;
  let windowStart = 0;
  if (before !== undefined) {
    windowStart = lineStart(oldText, before.start);
    if ((blocks[lo - 1]?.end ?? 0) > windowStart) return undefined;
  }
  let windowEnd = text.length;
  if (after !== undefined) {
    const cut = lineEnd(oldText, after.end);
    if ((blocks[hi + 1]?.start ?? Infinity) < cut) return undefined;
    windowEnd = cut + delta;
  }
  // The lines before the window as bare line endings: the parser sees blank lines (so lines and
  // columns are the file's) and offsets are moved back after.
  const blank = text.slice(0, windowStart).replace(/[^\r\n]/g, '');
  const parseText = blank + text.slice(windowStart, windowEnd);
  const parseSource = blank + source.slice(windowStart, windowEnd);
  const tree = await parser.raw(parseText);
  const windowCtx: IrContext = { file: ctx.file, source: parseSource, lines: new LineIndex(parseSource) };
  const parsed = splitBlocks(windowCtx, tree);
  if (parsed === undefined) return undefined;
  const shiftIn = windowStart - blank.length;
  const window = parsed.map((block) => moved(block, shiftIn, 0));
  if (before !== undefined && !sameBlock(window[0], before)) return undefined;
  if (after !== undefined && (window.length < (before !== undefined ? 2 : 1) || !sameBlock(window[window.length - 1], moved(after, delta, lineDelta)))) return undefined;
  const tail = blocks.slice(hi + 1).map((block) => moved(block, delta, lineDelta));
  return [...blocks.slice(0, lo), ...window, ...tail];
}

function sameBlock(a: Block | undefined, b: Block): boolean {
  return a !== undefined && a.start === b.start && a.end === b.end && deepEqual(a.nodes, b.nodes) && deepEqual(a.esm, b.esm);
}

/** The keys of the IR and of estree that hold offsets into the file (and `line`, a line number). */
const OFFSETS = new Set(['start', 'end', 'innerStart', 'innerEnd', 'offset']);

/** A copy of IR (with its estree) moved by `by` characters and `lines` lines. */
function moved<T>(value: T, by: number, lines: number): T {
  if (by === 0 && lines === 0) return value;
  return move(value, '', by, lines) as T;
}

function move(value: unknown, key: string, by: number, lines: number): unknown {
  if (typeof value === 'number') return OFFSETS.has(key) ? value + by : key === 'line' ? value + lines : value;
  if (value === null || typeof value !== 'object' || value instanceof RegExp) return value;
  if (Array.isArray(value)) return key === 'range' ? value.map((n: unknown) => (typeof n === 'number' ? n + by : n)) : value.map((item: unknown) => move(item, '', by, lines));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = move(v, k, by, lines);
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (a instanceof RegExp || b instanceof RegExp) return a instanceof RegExp && b instanceof RegExp && String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}
