import { AgentmarkError, type AgentmarkErrorOptions } from './agentmark-error.js';

/**
 * Several problems found in one pass (e.g. every schema violation of one file, or every bad
 * row of a dataset). Formats as one line per problem.
 */
export class ErrorList extends AgentmarkError {
  readonly code = 'MULTIPLE_ERRORS';
  readonly errors: readonly AgentmarkError[];

  constructor(errors: readonly AgentmarkError[], options?: AgentmarkErrorOptions) {
    super(`${errors.length} problem${errors.length === 1 ? '' : 's'} found`, options);
    this.errors = errors;
  }

  override format(cwd?: string): string {
    const lines = this.errors.map((error) => error.format(cwd)).join('\n');
    return this.hint ? `${lines}\n  hint: ${this.hint}` : lines;
  }
}

/** Flattens nested lists so callers can count and print problems one by one. */
export function flattenErrors(error: AgentmarkError): AgentmarkError[] {
  if (error instanceof ErrorList) return error.errors.flatMap(flattenErrors);
  return [error];
}
