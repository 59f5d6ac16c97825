import { parseArgs } from 'node:util';
import { closestMatch, UsageError } from '../errors/index.js';

/** One command-line flag, declared once: parsing, validation and --help all read this. */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'integer' | 'number';
  description: string;
  short?: string;
  /** Shown in --help, e.g. `<n>` or `<file>`. */
  value?: string;
  /** For repeatable string flags. */
  multiple?: boolean;
  /** Lowest accepted value for numbers. */
  min?: number;
  max?: number;
  /** @default shown in --help; the command applies it. */
  default?: string | number | boolean;
}

export type OptionTable = Record<string, OptionSpec>;

/** The parsed value type for a table: kebab-case keys kept as written. */
export type ParsedOptions<T extends OptionTable> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean'
    ? boolean
    : T[K]['type'] extends 'integer' | 'number'
      ? number
      : T[K]['multiple'] extends true
        ? string[]
        : string;
};

export interface ParsedArgs<T extends OptionTable> {
  options: ParsedOptions<T>;
  positionals: string[];
}

/** Flags every command takes. */
export const commonOptions = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
  project: { type: 'string', value: '<dir>', description: 'Project folder (default: walk up to agentmark.json)' },
} satisfies OptionTable;

/**
 * Parses argv against a flag table. Unknown flags, missing values and bad numbers are usage
 * errors naming the flag; `--no-x` is accepted for boolean `x`.
 */
export function parseOptions<T extends OptionTable>(argv: string[], table: T, command: string): ParsedArgs<T> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(table)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string' };
    if (spec.short) config[name].short = spec.short;
    if (spec.multiple) config[name].multiple = true;
    if (spec.type === 'boolean') config[`no-${name}`] = { type: 'boolean' };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError('USAGE_BAD_FLAG', cleanParseMessage(error) + flagSuggestion(error, config), {
      hint: `run \`agentmark ${command} --help\` to see the options`,
    });
  }
  const options: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(parsed.values)) {
    if (name.startsWith('no-') && !(name in table)) {
      options[name.slice(3)] = !raw;
      continue;
    }
    const spec = table[name];
    if (!spec) continue;
    options[name] = spec.type === 'integer' || spec.type === 'number' ? toNumber(name, raw, spec) : raw;
  }
  return { options: options as ParsedOptions<T>, positionals: parsed.positionals };
}

function toNumber(name: string, raw: unknown, spec: OptionSpec): number {
  const text = String(raw).trim();
  const value = text === '' ? NaN : Number(text);
  const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
  if (!Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) {
    throw new UsageError('USAGE_BAD_VALUE', `--${name} takes ${kind}, got "${text}"`);
  }
  if (spec.min !== undefined && value < spec.min) {
    throw new UsageError('USAGE_BAD_VALUE', `--${name} must be at least ${spec.min}, got ${value}`);
  }
  if (spec.max !== undefined && value > spec.max) {
    throw new UsageError('USAGE_BAD_VALUE', `--${name} must be at most ${spec.max}, got ${value}`);
  }
  return value;
}

/** `; did you mean --concurrency?` for an unknown long flag close to one of the command's. */
function flagSuggestion(error: unknown, config: Record<string, unknown>): string {
  const unknown = /^Unknown option '--([^'=]+)'/.exec(error instanceof Error ? error.message : '');
  if (!unknown?.[1]) return '';
  const match = closestMatch(unknown[1], Object.keys(config));
  return match === undefined ? '' : `; did you mean --${match}?`;
}

function cleanParseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Node's messages mention "To specify a positional argument..." which only confuses users.
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value; for one starting with a dash write ${ambiguous[1]}=<value>`;
  const first = message.split('. To specify')[0] ?? message;
  return first
    .replace(/^Unknown option '(.+)'$/, 'unknown option $1')
    .replace(/^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing$/, '$1 needs a value')
    .replace(/^Option '(?:-\w, )?(--[\w-]+)' does not take an argument$/, '$1 takes no value');
}
