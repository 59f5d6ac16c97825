import type { EvalParams, EvalResult, Scorer } from '../scoring/types.js';

/**
 * What AgentMark's `getEvalRegistry()` has returned over its versions, per its documentation:
 * a plain object of eval functions by name (the `EvalRegistry` type of prompt-core, and what a
 * client built with `scorers:`/`evals:` hands back), or an `EvalRegistry` instance filled with
 * `register(name, fn)` and read with `get(name)`. Nothing (undefined) means no evals.
 */
type RegistryValue = unknown;

/** An AgentMark eval function: `({ input, output, expectedOutput, ... }) => { score?, passed?, label?, reason? }`. */
type AgentmarkEvalFn = (params: EvalParams) => unknown;

/**
 * The registry's eval functions as our scorers, by name. A registry read through `get(name)`
 * cannot be listed, so it is asked for `names` (the eval names the project knows of).
 * Returns undefined when the value is none of the shapes above.
 */
export function scorersFromRegistry(registry: RegistryValue, names: readonly string[]): Record<string, Scorer> | undefined {
  if (registry === undefined || registry === null) return {};
  if (typeof registry !== 'object') return undefined;
  const found: Record<string, Scorer> = {};
  if (registry instanceof Map) {
    for (const [name, fn] of registry) if (typeof name === 'string' && typeof fn === 'function') found[name] = adapt(fn as AgentmarkEvalFn);
    return found;
  }
  const record = registry as Record<string, unknown>;
  const get = record['get'];
  if (typeof get === 'function' && Object.getPrototypeOf(registry) !== Object.prototype) {
    for (const name of names) {
      const fn: unknown = get.call(registry, name);
      if (typeof fn === 'function') found[name] = adapt(fn as AgentmarkEvalFn);
    }
    return found;
  }
  for (const [name, fn] of Object.entries(record)) if (typeof fn === 'function') found[name] = adapt(fn as AgentmarkEvalFn);
  return found;
}

/**
 * AgentMark calls an eval with one object and reads `score`, `passed`, `label` and `reason`
 * from what it returns — our contract too. Our params are a superset of AgentMark's (input,
 * output, expectedOutput, plus metadata, messages, usage...), so the function gets them as
 * they are; the abort signal is not passed, since an AgentMark eval takes one argument.
 */
function adapt(fn: AgentmarkEvalFn): Scorer {
  return async (params) => (await fn(params)) as EvalResult;
}
