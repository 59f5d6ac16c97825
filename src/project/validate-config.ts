import { ConfigError, didYouMean } from '../errors/index.js';
import { CONFIG_KEYS, type AgentmarkConfig } from './config-types.js';
import { HOOK_NAMES } from './hook-types.js';

type Check = (value: unknown) => string | undefined;

const isFunction: Check = (value) => (typeof value === 'function' ? undefined : `must be a function (got ${describe(value)})`);
const isObject: Check = (value) => (isRecord(value) ? undefined : `must be an object (got ${describe(value)})`);
const isString: Check = (value) => (typeof value === 'string' ? undefined : `must be a string (got ${describe(value)})`);
const isPrice: Check = (value) => {
  if (!isRecord(value)) return `must be { input, output } in USD per million tokens (got ${describe(value)})`;
  for (const side of ['input', 'output'] as const) {
    const price = value[side];
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
      return `.${side} must be a non-negative number of USD per million tokens (got ${describe(price)})`;
    }
  }
  for (const side of ['batchInput', 'batchOutput'] as const) {
    const price = value[side];
    if (price !== undefined && (typeof price !== 'number' || !Number.isFinite(price) || price < 0)) {
      return `.${side} must be a non-negative number of USD per million tokens (got ${describe(price)})`;
    }
  }
  return undefined;
};

const isRateCap: Check = (value) => {
  if (!isRecord(value)) return `must be { rpm?, tpm? } (got ${describe(value)})`;
  for (const [name, limit] of Object.entries(value)) {
    if (name !== 'rpm' && name !== 'tpm') return `: unknown key "${name}" (rpm: requests a minute, tpm: tokens a minute)`;
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0)) return `.${name} must be a number above 0 (got ${describe(limit)})`;
  }
  return undefined;
};

/** For map-shaped keys, the check each entry must pass. */
const ENTRY_CHECKS: Record<'scorers' | 'tools' | 'providers' | 'prices' | 'filters' | 'agents' | 'rateLimit', Check> = {
  rateLimit: isRateCap,
  scorers: isFunction,
  agents: isFunction,
  filters: isFunction,
  tools: isObject,
  providers: isFunction,
  prices: isPrice,
};

/**
 * Checks the shape of a loaded config so a mistake is reported at load time, naming the file
 * and key, rather than as a TypeError deep inside a run. Returns every problem found.
 */
export function validateConfig(value: unknown, file: string): { config: AgentmarkConfig; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const fail = (message: string, hint?: string) =>
    errors.push(new ConfigError('CONFIG_INVALID', message, { location: { file }, hint }));

  if (!isRecord(value)) {
    fail(`the config must be an object (got ${describe(value)})`, 'export default defineConfig({ scorers: { ... } })');
    return { config: {}, errors };
  }
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined) continue;
    if (key in ENTRY_CHECKS) {
      const check = ENTRY_CHECKS[key as keyof typeof ENTRY_CHECKS];
      if (!isRecord(entry)) {
        fail(`${key} must be an object keyed by name (got ${describe(entry)})`);
        continue;
      }
      for (const [name, item] of Object.entries(entry)) {
        const problem = check(item);
        if (problem) fail(`${key}.${name}${/^[.:]/.test(problem) ? '' : ' '}${problem}`);
      }
    } else if (key === 'hooks') {
      if (!isRecord(entry)) {
        fail(`hooks must be an object of functions (got ${describe(entry)})`, `known hooks: ${HOOK_NAMES.join(', ')}`);
        continue;
      }
      for (const [name, hook] of Object.entries(entry)) {
        if (!(HOOK_NAMES as readonly string[]).includes(name)) fail(`unknown hook "${name}"`, didYouMean(name, HOOK_NAMES) ?? `known hooks: ${HOOK_NAMES.join(', ')}`);
        else if (hook !== undefined && typeof hook !== 'function') fail(`hooks.${name} must be a function (got ${describe(hook)})`);
      }
    } else if (key === 'otel') {
      for (const problem of otelProblems(entry)) fail(`otel${problem}`, 'e.g. otel: { endpoint: "http://localhost:4318", headers: { authorization: process.env.OTLP_TOKEN } }');
    } else if (key === 'baseURL' || key === 'judgeModel') {
      const problem = isString(entry);
      if (problem) fail(`${key} ${problem}`);
    } else {
      const suggestion = didYouMean(key, CONFIG_KEYS);
      fail(`unknown config key "${key}"`, suggestion ?? `known keys: ${CONFIG_KEYS.join(', ')}`);
    }
  }
  return { config: value as AgentmarkConfig, errors };
}

/** The config's `otel: { … }`, field by field (see OtelConfig). */
function otelProblems(value: unknown): string[] {
  if (!isRecord(value)) return [` must be an object (got ${describe(value)})`];
  const problems: string[] = [];
  const fields: Record<string, Check> = {
    enabled: (v) => (typeof v === 'boolean' ? undefined : `must be true or false (got ${describe(v)})`),
    content: (v) => (typeof v === 'boolean' ? undefined : `must be true or false (got ${describe(v)})`),
    endpoint: isString,
    protocol: (v) => (v === 'http/protobuf' || v === 'http/json' ? undefined : `must be "http/protobuf" or "http/json" (got ${describe(v)})`),
    timeoutSeconds: (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : `must be a number of seconds above 0 (got ${describe(v)})`),
    headers: (v) => (isRecord(v) && Object.values(v).every((h) => typeof h === 'string') ? undefined : 'must be an object of strings'),
    tracePer: (v) => (v === 'run' || v === 'row' ? undefined : `must be "run" or "row" (got ${describe(v)})`),
  };
  for (const [name, item] of Object.entries(value)) {
    const check = fields[name];
    if (!check) {
      const typo = didYouMean(name, Object.keys(fields));
      problems.push(`: unknown key "${name}"${typo ? `; ${typo}` : ''}`);
      continue;
    }
    const problem = item === undefined ? undefined : check(item);
    if (problem) problems.push(`.${name} ${problem}`);
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}
