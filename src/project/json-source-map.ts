/** A 1-based position in a text. Columns count UTF-16 code units, as editors do. */
export interface TextPosition {
  line: number;
  column: number;
}

/** Where a JSON value (and, for object members, its key) starts. */
export interface PointerPosition {
  value: TextPosition;
  key?: TextPosition;
}

/** A JSON syntax problem with the position of the offending character. */
export interface JsonSyntaxProblem extends TextPosition {
  message: string;
}

export type JsonScanResult =
  | { ok: true; pointers: Map<string, PointerPosition> }
  | { ok: false; problem: JsonSyntaxProblem };

/** Escapes one JSON Pointer segment (RFC 6901), as ajv writes `instancePath`. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Scans JSON text and maps every JSON Pointer to the line:column where its value starts.
 *
 * `JSON.parse` stays the source of values; this scanner exists because V8's messages do not
 * reliably carry a position, and schema errors need to point into the file. It follows the
 * JSON grammar strictly so that a syntax error is reported where it is, not later.
 * Nesting deeper than `maxDepth` is reported as a problem rather than overflowing the stack.
 */
export function scanJson(text: string, maxDepth = 2000): JsonScanResult {
  const scanner = new Scanner(text, maxDepth);
  try {
    scanner.skipWhitespace();
    scanner.value('', 0);
    scanner.skipWhitespace();
    if (scanner.offset < text.length) scanner.fail('unexpected text after the JSON value');
    return { ok: true, pointers: scanner.pointers };
  } catch (error) {
    if (error instanceof ScanFailure) return { ok: false, problem: error.problem };
    throw error;
  }
}

class ScanFailure extends Error {
  constructor(readonly problem: JsonSyntaxProblem) {
    super(problem.message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'] as const;

class Scanner {
  offset = 0;
  readonly pointers = new Map<string, PointerPosition>();
  private line = 1;
  private lineStart = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  position(): TextPosition {
    return { line: this.line, column: this.offset - this.lineStart + 1 };
  }

  fail(message: string): never {
    throw new ScanFailure({ message, ...this.position() });
  }

  skipWhitespace(): void {
    const text = this.text;
    while (this.offset < text.length) {
      const ch = text.charCodeAt(this.offset);
      if (ch === 0x0a) {
        this.offset++;
        this.line++;
        this.lineStart = this.offset;
      } else if (ch === 0x20 || ch === 0x09 || ch === 0x0d) {
        this.offset++;
      } else {
        break;
      }
    }
  }

  private describeHere(): string {
    const ch = this.text[this.offset];
    return ch === undefined ? 'unexpected end of JSON' : `unexpected character ${JSON.stringify(ch)}`;
  }

  value(pointer: string, depth: number, key?: TextPosition): void {
    const start = this.position();
    this.pointers.set(pointer, key ? { value: start, key } : { value: start });
    const ch = this.text[this.offset];
    if (ch === '{' || ch === '[') {
      if (depth >= this.maxDepth) this.fail(`JSON nested deeper than ${this.maxDepth} levels`);
      if (ch === '{') this.object(pointer, depth + 1);
      else this.array(pointer, depth + 1);
    } else if (ch === '"') {
      this.string();
    } else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = this.offset;
      const match = NUMBER.exec(this.text);
      if (!match || match[0] === '-') this.fail('invalid number');
      this.offset += match[0].length;
    } else {
      const literal = LITERALS.find((word) => this.text.startsWith(word, this.offset));
      if (!literal) this.fail(`${this.describeHere()}, expected a JSON value`);
      this.offset += literal.length;
    }
  }

  private object(pointer: string, depth: number): void {
    this.offset++; // {
    this.skipWhitespace();
    if (this.text[this.offset] === '}') {
      this.offset++;
      return;
    }
    for (;;) {
      if (this.text[this.offset] !== '"') this.fail(`${this.describeHere()}, expected a property name in double quotes`);
      const keyPosition = this.position();
      const keyStart = this.offset;
      this.string();
      const key = JSON.parse(this.text.slice(keyStart, this.offset)) as string;
      this.skipWhitespace();
      if (this.text[this.offset] !== ':') this.fail(`${this.describeHere()}, expected ':' after property name`);
      this.offset++;
      this.skipWhitespace();
      this.value(`${pointer}/${escapePointerSegment(key)}`, depth, keyPosition);
      this.skipWhitespace();
      const next = this.text[this.offset];
      if (next === '}') {
        this.offset++;
        return;
      }
      if (next !== ',') this.fail(`${this.describeHere()}, expected ',' or '}' after property value`);
      this.offset++;
      this.skipWhitespace();
      if (this.text[this.offset] === '}') this.fail("trailing comma before '}'");
    }
  }

  private array(pointer: string, depth: number): void {
    this.offset++; // [
    this.skipWhitespace();
    if (this.text[this.offset] === ']') {
      this.offset++;
      return;
    }
    for (let index = 0; ; index++) {
      this.value(`${pointer}/${index}`, depth);
      this.skipWhitespace();
      const next = this.text[this.offset];
      if (next === ']') {
        this.offset++;
        return;
      }
      if (next !== ',') this.fail(`${this.describeHere()}, expected ',' or ']' after array element`);
      this.offset++;
      this.skipWhitespace();
      if (this.text[this.offset] === ']') this.fail("trailing comma before ']'");
    }
  }

  private string(): void {
    const text = this.text;
    this.offset++; // opening quote
    while (this.offset < text.length) {
      const ch = text.charCodeAt(this.offset);
      if (ch === 0x22) {
        this.offset++;
        return;
      }
      if (ch < 0x20) this.fail('control character in string (newlines and tabs must be escaped)');
      if (ch === 0x5c) {
        const escape = text[this.offset + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.offset + 2, this.offset + 6))) this.fail('invalid \\u escape');
          this.offset += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) this.fail('invalid escape in string');
        this.offset += 2;
        continue;
      }
      this.offset++;
    }
    this.fail('unterminated string');
  }
}
