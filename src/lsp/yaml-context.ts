/** Where the cursor is in a prompt file, told from the lines around it. */
export interface CursorContext {
  /** In the YAML frontmatter, or in the MDX body. */
  where: 'frontmatter' | 'body';
  /** The frontmatter keys enclosing the cursor (`['test_settings', 'evals']` inside `evals: [`). */
  path: string[];
  /** On a key (writing one) rather than in a value. */
  onKey: boolean;
}

/** A value naming a model: a config's `model_name`, or an entry of `test_settings.models` (the models a prompt runs against). */
export function isModelKey(path: readonly string[]): boolean {
  const key = path[path.length - 1];
  return key === 'model_name' || (key === 'models' && path[path.length - 2] === 'test_settings');
}

const KEY_LINE = /^(\s*)([A-Za-z_$][\w$-]*)\s*:/;
const ITEM_LINE = /^(\s*)-(\s|$)/;

/** The line of the frontmatter's closing `---` (0-based), or undefined when there is none. */
export function frontmatterEnd(lines: readonly string[]): number | undefined {
  if (!/^---[ \t]*\r?$/.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length; i++) if (/^---[ \t]*\r?$/.test(lines[i] ?? '')) return i;
  return undefined;
}

/**
 * The context of a 0-based position: only a reading of indentation and `key:` prefixes, to know
 * which key the cursor is under; the frontmatter itself is parsed by the prompt loader.
 */
export function cursorContext(text: string, line: number, character: number): CursorContext {
  const lines = text.split('\n');
  const end = frontmatterEnd(lines);
  if (end === undefined || line <= 0 || line >= end) return { where: 'body', path: [], onKey: false };
  const current = lines[line] ?? '';
  const key = KEY_LINE.exec(current);
  if (key?.[2] !== undefined) {
    const colon = current.indexOf(':', (key[1] ?? '').length);
    const parents = enclosingKeys(lines, line, indentOf(current));
    return character > colon ? { where: 'frontmatter', path: [...parents, key[2]], onKey: false } : { where: 'frontmatter', path: parents, onKey: true };
  }
  if (ITEM_LINE.test(current)) return { where: 'frontmatter', path: enclosingKeys(lines, line, indentOf(current) + 1), onKey: false };
  // A blank or partial line: its indentation (up to the cursor) says where it belongs.
  const typed = current.slice(0, character);
  return { where: 'frontmatter', path: enclosingKeys(lines, line, indentOf(typed)), onKey: typed.trim() === '' || /^\s*[\w$-]*$/.test(typed) };
}

/** The keys of the lines above `line` that hold it: each a key line indented less than the last. */
function enclosingKeys(lines: readonly string[], line: number, indent: number): string[] {
  const keys: string[] = [];
  let limit = indent;
  for (let i = line - 1; i > 0 && limit > 0; i--) {
    const text = lines[i] ?? '';
    if (text.trim() === '' || ITEM_LINE.test(text)) continue;
    const key = KEY_LINE.exec(text);
    const own = indentOf(text);
    if (key?.[2] !== undefined && own < limit) {
      keys.unshift(key[2]);
      limit = own;
    }
  }
  return keys;
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}
