/** A block of a Markdown file that holds `npx agentmark …` commands, with what the docs say about it. */
export interface DocBlock {
  file: string;
  /** 1-based line of the block's opening fence. */
  line: number;
  commands: string[];
  /** The exit code each command must give, in order; empty when the block is skipped. */
  exits: number[];
  /** Why the block is not run (`<!-- doc-test: skip <reason> -->`), if it is not. */
  skip?: string;
}

const COMMAND = /^(?:\$\s+)?(?:[A-Z_][A-Z0-9_]*=\S*\s+)*npx agentmark(?:\s|$)/;
const MARKER = /^<!--\s*doc-test:\s*(skip|exit)\b\s*(.*?)\s*-->$/;

/**
 * The fenced code blocks of `text` that run `npx agentmark` (a line starting with it, after an
 * optional `$ ` prompt or `VAR=value` assignments), each with the exit codes its marker gives:
 * `<!-- doc-test: exit 1 -->` (every command), `<!-- doc-test: exit 1 0 -->` (one per command),
 * `<!-- doc-test: skip <reason> -->`; no marker means every command exits 0. A marker the
 * block does not fit is an error, so the docs cannot drift from the test silently.
 */
export function docBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(```+|~~~+)/.exec(lines[i] ?? '');
    if (fence === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] ?? '').startsWith(fence[1] ?? '```'); i++) body.push(lines[i] ?? '');
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: the code block is never closed`);
    const commands = body.map((line) => line.trim()).filter((line) => COMMAND.test(line));
    const marker = MARKER.exec((lines[start - 1] ?? '').trim());
    if (commands.length === 0) {
      if (marker !== null) throw new Error(`${file}:${start}: a doc-test marker before a block with no npx agentmark command`);
      continue;
    }
    const block: DocBlock = { file, line: start + 1, commands, exits: [] };
    if (marker?.[1] === 'skip') {
      if (marker[2] === '') throw new Error(`${file}:${start}: doc-test: skip needs a reason`);
      block.skip = marker[2];
    } else {
      const codes = marker?.[1] === 'exit' ? (marker[2] ?? '').split(/\s+/).filter(Boolean).map(Number) : [0];
      if (codes.length === 0 || codes.some((code) => !Number.isInteger(code))) throw new Error(`${file}:${start}: doc-test: exit needs exit codes`);
      if (codes.length !== 1 && codes.length !== commands.length) {
        throw new Error(`${file}:${start}: doc-test: exit gives ${codes.length} codes for ${commands.length} commands`);
      }
      block.exits = commands.map((_, n) => codes[codes.length === 1 ? 0 : n] ?? 0);
      const placeholder = commands.find((command) => /[<>…]|\.\.\./.test(command.replace(/#.*$/, '')));
      if (placeholder !== undefined) throw new Error(`${file}:${block.line}: "${placeholder}" has a placeholder; mark the block <!-- doc-test: skip <reason> -->`);
    }
    blocks.push(block);
  }
  return blocks;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get `-1`, `-2`... */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = (heading[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative Markdown link of `text` outside code: `[text](path#anchor)`, `[text](#anchor)`. */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^[a-z]+:/i.test(target));
}
