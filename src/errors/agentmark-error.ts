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

  /** `file:line:col: message` (the parts that are known), without the hint. */
  get where(): string {
    const loc = this.location;
    if (!loc) return '';
    let text = loc.file;
    if (loc.line !== undefined) {
      text += `:${loc.line}`;
      if (loc.column !== undefined) text += `:${loc.column}`;
    }
    return text;
  }

  /** One line per problem, then the hint indented, as the CLI prints it. */
  format(): string {
    const head = this.where ? `${this.where}: ${this.message}` : this.message;
    return this.hint ? `${head}\n  hint: ${this.hint}` : head;
  }
}

export function isAgentmarkError(value: unknown): value is AgentmarkError {
  return value instanceof AgentmarkError;
}
