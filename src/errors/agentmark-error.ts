import { isAbsolute, relative } from 'node:path';

/** Where in a file an error points. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface AgentmarkErrorOptions {
  location?: SourceLocation;
  hint?: string;
  cause?: unknown;
}

/**
 * Base class of every error this project throws on purpose. A known error is printed as one
 * clear message (`file:line:col: message` plus a hint), never with a stack trace.
 */
export abstract class AgentmarkError extends Error {
  abstract readonly code: string;
  /** Process exit code the CLI uses when this error ends a command. */
  readonly exitCode: number = 2;
  readonly location: SourceLocation | undefined;
  readonly hint: string | undefined;

  constructor(message: string, options: AgentmarkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.location = options.location;
    this.hint = options.hint;
  }

  /** `file:line:col` (the parts that are known); relative to `cwd` when given. */
  whereFrom(cwd?: string): string {
    const loc = this.location;
    if (!loc) return '';
    let text = cwd !== undefined && isAbsolute(loc.file) ? relative(cwd, loc.file) || loc.file : loc.file;
    if (loc.line !== undefined) {
      text += `:${loc.line}`;
      if (loc.column !== undefined) text += `:${loc.column}`;
    }
    return text;
  }

  get where(): string {
    return this.whereFrom();
  }

  /** One line per problem, then the hint indented, as the CLI prints it. Paths relative to `cwd` when given. */
  format(cwd?: string): string {
    const where = this.whereFrom(cwd);
    const head = where ? `${where}: ${this.message}` : this.message;
    return this.hint ? `${head}\n  hint: ${this.hint}` : head;
  }
}

export function isAgentmarkError(value: unknown): value is AgentmarkError {
  return value instanceof AgentmarkError;
}
