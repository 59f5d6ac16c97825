import type { SourceRef } from './types.js';

/** A parsed YAML or JSON file that can say on which line a value sits. */
export interface LocatedDocument {
  value: unknown;
  file: string;
  /** The line (1-based) of the value at `path`, else of its nearest ancestor found. */
  ref(path: ReadonlyArray<string | number>): SourceRef;
}

export class SourceParseError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

interface YamlNodeLike {
  range?: [number, number, number] | null;
}

/**
 * Parses YAML (JSON is YAML) keeping each node's offset, so problems can name their line.
 * Lazy-loads `yaml`: importers are the only commands that need it at this point.
 */
export async function parseLocated(text: string, file: string): Promise<LocatedDocument> {
  const { parseDocument, LineCounter, isMap, isSeq, isScalar } = await import('yaml');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0]?.line;
    throw new SourceParseError(first.message.split('\n')[0] ?? first.message, line);
  }
  const lineAt = (node: YamlNodeLike | null | undefined): number | undefined => {
    const start = node?.range?.[0];
    return start === undefined ? undefined : lines.linePos(start).line;
  };
  return {
    value: doc.toJS({ maxAliasCount: 1000 }) as unknown,
    file,
    ref(path) {
      let node: unknown = doc.contents;
      let line = lineAt(node as YamlNodeLike);
      for (const key of path) {
        let next: unknown;
        if (isMap(node)) {
          const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === key);
          // A key's own line reads better than its value's (a block value starts on the next line).
          if (pair !== undefined) line = lineAt(pair.key as YamlNodeLike) ?? line;
          next = pair?.value;
        } else if (isSeq(node) && typeof key === 'number') {
          next = node.items[key];
          line = lineAt(next as YamlNodeLike) ?? line;
        }
        if (next === undefined || next === null) break;
        node = next;
      }
      return line === undefined ? { file } : { file, line };
    },
  };
}
