import type { JSONSchema7 } from '../../prompt/json-schema.js';
import type { BuiltinScorer, Scorer, ScorerContext } from '../types.js';

interface TypedBuiltin<O> {
  name: string;
  description: string;
  options: JSONSchema7;
  callsModel?: boolean;
  create(options: O, ctx: ScorerContext): Scorer | Promise<Scorer>;
}

/**
 * Lets each built-in read its options with a written type. The single cast is sound because
 * bindEvals validates options against `options` with ajv before calling `create`.
 */
export function defineScorer<O extends object>(definition: TypedBuiltin<O>): BuiltinScorer {
  return {
    name: definition.name,
    description: definition.description,
    options: definition.options,
    ...(definition.callsModel ? { callsModel: true } : {}),
    create: (options, ctx) => definition.create(options as O, ctx),
  };
}
