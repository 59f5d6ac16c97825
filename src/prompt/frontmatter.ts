import { PromptSyntaxError } from '../errors/index.js';
import { LineIndex } from './line-index.js';

/** The frontmatter of a file, parsed, with what is needed to point errors at its lines. */
export interface ParsedFrontmatter {
  data: Record<string, unknown>;
  /** The file text with the frontmatter blanked out (same offsets, lines and columns). */
  body: string;
  /** Offset where the body starts. */
  bodyStart: number;
  /** Line of a frontmatter value by path, when the YAML node can be found. */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** Line and column of a map entry's key or a list item, by path, when the YAML node can be found. */
  positionOf(path: readonly (string | number)[]): { line: number; column: number } | undefined;
}

interface YamlNodeLike {
  range?: [number, number, number] | null;
  value?: unknown;
  key?: YamlNodeLike | null;
  items?: YamlNodeLike[];
}
interface YamlDocumentLike {
  contents: unknown;
  getIn(path: Iterable<unknown>, keepScalar?: boolean): unknown;
}

/** Offset of the key (for a map entry) or item (for a list entry) a path ends at. */
function offsetOf(document: YamlDocumentLike | undefined, path: readonly (string | number)[]): number | undefined {
  if (!document || path.length === 0) return undefined;
  const parentPath = path.slice(0, -1);
  const parent = (parentPath.length === 0 ? document.contents : document.getIn(parentPath, true)) as YamlNodeLike | undefined;
  const last = path[path.length - 1];
  const items = parent?.items ?? [];
  for (const [index, item] of items.entries()) {
    if (item.key !== undefined) {
      if (item.key !== null && String(item.key.value) === String(last)) return item.key.range?.[0];
    } else if (index === Number(last)) return item.range?.[0];
  }
  return undefined;
}

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Reads the YAML frontmatter between a first line `---` and the next line `---` with the `yaml`
 * package, whose alias limit (maxAliasCount) rejects alias bombs and whose errors carry offsets.
 * Only YAML: a prompt file is untrusted input, and nothing here can evaluate code (gray-matter,
 * which AgentMark uses, ships an engine that evals `---js` frontmatter).
 */
export async function parseFrontmatter(file: string, text: string): Promise<ParsedFrontmatter> {
  const lines = new LineIndex(text);
  const opening = OPENING.exec(text);
  if (!opening) {
    return { data: {}, body: text, bodyStart: 0, lineOf: () => undefined, positionOf: () => undefined };
  }
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) {
    throw new PromptSyntaxError('PROMPT_FRONTMATTER_UNCLOSED', 'frontmatter starts with --- but has no closing --- line', {
      location: { file, line: 1, column: 1 },
    });
  }
  const yamlStart = opening[0].length;
  const closingEnd = yamlStart + closing.index + closing[0].length;
  const bodyStart = text[closingEnd] === '\r' ? closingEnd + 2 : closingEnd + 1;
  // Without the newline before the closing `---`, so an error at the end of the YAML (an
  // unclosed bracket) points at the end of its own line, not at the delimiter.
  const source = rest.slice(0, closing.index).replace(/\r?\n$/, '');

  let document: YamlDocumentLike | undefined;
  let data: unknown = {};
  // Empty frontmatter (`---` then `---`) is an empty mapping, as in AgentMark.
  if (source.trim() !== '') {
    const YAML = await import('yaml');
    try {
      const doc = YAML.parseDocument(source, { prettyErrors: false });
      const first = doc.errors[0];
      if (first) throw first;
      document = doc;
      const value: unknown = doc.toJS();
      // `a: &a [*a]` is legal YAML but makes a cyclic object no JSON output can hold.
      if (hasCycle(value)) throw new Error('an alias refers to a node that contains it (a cycle)');
      data = value !== null && typeof value === 'object' ? value : { value };
    } catch (error) {
      throw yamlError(file, lines, yamlStart, error);
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new PromptSyntaxError('PROMPT_FRONTMATTER_NOT_OBJECT', 'frontmatter must be a YAML mapping (key: value lines)', {
      location: { file, line: 2, column: 1 },
    });
  }
  const body = text.slice(0, bodyStart).replace(/[^\n]/g, ' ') + text.slice(bodyStart);
  const positionOf = (path: readonly (string | number)[]) => {
    const start = offsetOf(document, path);
    return start === undefined ? undefined : lines.at(yamlStart + start);
  };
  return { data: data as Record<string, unknown>, body, bodyStart, lineOf: (path) => positionOf(path)?.line, positionOf };
}

function yamlError(file: string, lines: LineIndex, inputOffset: number, error: unknown): PromptSyntaxError {
  const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
  const pos = (error as { pos?: unknown }).pos;
  const offset = Array.isArray(pos) && typeof pos[0] === 'number' ? inputOffset + pos[0] : undefined;
  // An alias bomb (ReferenceError from yaml) has no position: point at the frontmatter's start.
  const where = offset === undefined ? { line: 2, column: 1 } : lines.at(offset);
  return new PromptSyntaxError('PROMPT_YAML', `invalid YAML in frontmatter: ${message}`, {
    location: { file, ...where },
    cause: error,
  });
}

/** True when an object graph contains itself; iterative, so deep YAML cannot overflow the stack. */
function hasCycle(root: unknown): boolean {
  const onPath = new Set<object>();
  const finished = new Set<object>();
  const stack: Array<{ value: object; leaving: boolean }> = [];
  if (root !== null && typeof root === 'object') stack.push({ value: root, leaving: false });
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.leaving) {
      onPath.delete(top.value);
      finished.add(top.value);
      continue;
    }
    if (onPath.has(top.value)) return true;
    if (finished.has(top.value)) continue;
    onPath.add(top.value);
    stack.push({ value: top.value, leaving: true });
    for (const child of Object.values(top.value)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child as object, leaving: false });
    }
  }
  return false;
}
