import { AgentmarkError, type AgentmarkErrorOptions } from './agentmark-error.js';

/** `agentmark.json` or `agentmark.config.*` is missing or invalid. */
export class ConfigError extends AgentmarkError {
  readonly code: string;
  constructor(code: `CONFIG_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** A `.prompt.mdx` file (frontmatter or body) cannot be parsed or breaks the format. */
export class PromptSyntaxError extends AgentmarkError {
  readonly code: string;
  constructor(code: `PROMPT_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Rendering a template failed: unknown identifier, filter, tag, component problem. */
export class TemplateError extends AgentmarkError {
  readonly code: string;
  constructor(code: `TEMPLATE_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** A dataset file is missing, empty, or has a bad line. */
export class DatasetError extends AgentmarkError {
  readonly code: string;
  constructor(code: `DATASET_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** An eval name cannot be bound to a scorer, or the scorer's options are invalid. */
export class EvalBindingError extends AgentmarkError {
  readonly code: string;
  constructor(code: `EVAL_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export interface ModelCallErrorOptions extends AgentmarkErrorOptions {
  retryable?: boolean;
  statusCode?: number;
}

/** A model call failed after its retries. Recorded on the row; the run goes on. */
const SETUP_CODES = new Set(['MODEL_NO_API_KEY', 'MODEL_AUTH_FAILED', 'MODEL_NOT_FOUND', 'MODEL_UNREACHABLE', 'MODEL_BATCH_NOT_SUPPORTED', 'MODEL_BATCH_CONNECTION_FAILED', 'MODEL_QUOTA_EXCEEDED']);

export class ModelCallError extends AgentmarkError {
  readonly code: string;
  readonly retryable: boolean;
  readonly statusCode: number | undefined;
  /**
   * A missing or refused key, an unknown model and a server that cannot be reached are set-up
   * errors (exit 2); a model that fails
   * (server error, timeout, rate limit) is not the user's input error (exit 1).
   */
  override readonly exitCode: number;
  constructor(code: `MODEL_${string}`, message: string, options: ModelCallErrorOptions = {}) {
    super(message, options);
    this.code = code;
    this.exitCode = SETUP_CODES.has(code) ? 2 : 1;
    this.retryable = options.retryable ?? false;
    this.statusCode = options.statusCode;
  }
}

/** The command line itself is wrong: unknown flag, bad value, conflicting options. */
export class UsageError extends AgentmarkError {
  readonly code: string;
  constructor(code: `USAGE_${string}`, message: string, options?: AgentmarkErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
