import { AgentmarkError, type AgentmarkErrorOptions } from '../errors/index.js';

/** A run folder exists but its files cannot be used (bad manifest, corrupt results line). */
export class RunStoreError extends AgentmarkError {
  readonly code: string;
  constructor(code: `STORE_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
