import type { Tool } from 'ai';
import { basename } from 'node:path';
import { closestMatch, EvalBindingError } from '../errors/index.js';
import type { SourceLocation } from '../errors/index.js';
import type { PathScope } from '../project/path-scope.js';
import type { ScoreSchema } from '../project/types.js';
import type { JSONSchema7 } from '../prompt/json-schema.js';
import { compileTrustedSchema, formatAjvErrors } from './ajv.js';
import { builtinScorers } from './builtins/index.js';
import { locateOption, locateScoreField } from './locate-option.js';

/** Built-ins that can return a categorical `label` (the judge answers with one of the categories). */
const LABEL_SCORERS: ReadonlySet<string> = new Set(['llm_judge', 'factuality']);
import type { BoundEval, BuiltinScorer, EmbedFn, EvalControl, EvalResult, JudgeFn, Scorer, ScorerControl } from './types.js';
import { ScorerPool } from './workers/scorer-pool.js';

export interface BindContext {
  /** `scores` of agentmark.json. */
  scores: Record<string, ScoreSchema>;
  /** Scorers registered in agentmark.config.ts, by eval name. */
  userScorers: Record<string, Scorer>;
  /** The prompt's object_config.schema (json_schema's default). */
  promptSchema?: JSONSchema7 | undefined;
  judge?: JudgeFn | undefined;
  embed?: EmbedFn | undefined;
  judgeModel?: string | undefined;
  projectRoot: string;
  promptPath: string;
  /** Folders a judge's own prompt may be read from. @default the project root alone */
  pathScope?: PathScope | undefined;
  /** Where the prompt names its i-th eval (`test_settings.evals[i]`), for errors. @default the prompt file */
  evalLocation?: ((index: number) => SourceLocation) | undefined;
  /** agentmark.json, where built-ins' options are written (for error locations). */
  projectFile?: string | undefined;
  /**
   * The config file the user scorers came from. Given, they run in worker threads that load it
   * themselves, so a scorer that never returns can be stopped; without it they run in this thread.
   */
  configFile?: string | undefined;
  /**
   * The project's AgentMark client could not be loaded: an eval no other scorer binds may be one
   * it registers, so it fails naming the client and the reason rather than as an unknown name.
   */
  clientFailure?: { file: string; reason: string } | undefined;
  /** Tools registered in agentmark.config.ts, and the prompt's `text_config.tools` (for is_valid_tools_call). */
  tools?: Readonly<Record<string, Tool>> | undefined;
  promptTools?: readonly string[] | undefined;
  /** Rows scored at once; bounds the worker pool (with the core count). @default 10 */
  concurrency?: number;
}

export interface BindResult {
  evals: BoundEval[];
  warnings: string[];
  /** Stops the worker threads of user scorers, if any started; call when the run is over. */
  close(): Promise<void>;
}

/** `name (string, required), flags (string)`: enough to fix a typo without opening the docs. */
function describeOptions(builtin: BuiltinScorer): string {
  const properties = (builtin.options['properties'] ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set((builtin.options['required'] ?? []) as string[]);
  const names = Object.entries(properties).map(([key, value]) => {
    const type = typeof value.type === 'string' ? value.type : 'value';
    return `${key} (${type}${required.has(key) ? ', required' : ''})`;
  });
  return names.length ? `options of ${builtin.name}: ${names.join(', ')}` : `${builtin.name} takes no options`;
}

async function createBuiltin(
  evalName: string,
  builtin: BuiltinScorer,
  options: Record<string, unknown>,
  schema: ScoreSchema | undefined,
  ctx: BindContext,
  /** Where the options are written when not in agentmark.json (a dataset row). */
  written?: SourceLocation,
): Promise<Scorer> {
  await checkOptions(evalName, builtin, options, ctx, written);
  const file = ctx.projectFile;
  return builtin.create(options, {
    evalName,
    schema,
    promptSchema: ctx.promptSchema,
    judge: ctx.judge,
    embed: ctx.embed,
    judgeModel: ctx.judgeModel,
    projectRoot: ctx.projectRoot,
    promptPath: ctx.promptPath,
    pathScope: ctx.pathScope,
    tools: ctx.tools,
    promptTools: ctx.promptTools,
    ...(written !== undefined
      ? { locateOption: () => Promise.resolve(written) }
      : file === undefined
        ? {}
        : { locateOption: (key: string) => locateOption(file, evalName, key) }),
  });
}

/** Checks a built-in's options against its schema; EVAL_INVALID_OPTIONS lists every violation. */
async function checkOptions(evalName: string, builtin: BuiltinScorer, options: Record<string, unknown>, ctx: BindContext, written?: SourceLocation): Promise<void> {
  // No options against a schema that requires none is valid: ajv (and its start-up cost) is
  // only loaded when there is something to check.
  const required = builtin.options['required'];
  const needsSome = (Array.isArray(required) && required.length > 0) || builtin.options['minProperties'] !== undefined;
  if (Object.keys(options).length === 0 && !needsSome) return;
  // Built-in option schemas are ours: no meta-schema check at every start.
  const validate = await compileTrustedSchema(builtin.options);
  if (validate(options)) return;
  const violations = formatAjvErrors(validate.errors).map((v) => v.replace(/^\(root\) /, ''));
  throw new EvalBindingError(
    'EVAL_INVALID_OPTIONS',
    `eval "${evalName}": invalid options for built-in "${builtin.name}": ${violations.join('; ')}`,
    { location: written ?? { file: ctx.promptPath }, hint: describeOptions(builtin) },
  );
}

/**
 * Binds each eval name to a scorer, in this order: a scorer registered in the project's config,
 * then the built-in named by the score schema's `scorer` key (with its `options`), then the
 * built-in of the same name. Fails before any model call, so a typo costs nothing.
 */
export async function bindEvals(evalNames: string[], ctx: BindContext): Promise<BindResult> {
  const specs: EvalSpec[] = [];
  const seen = new Set<string>();
  for (const [index, name] of evalNames.entries()) {
    if (seen.has(name)) continue;
    seen.add(name);
    specs.push({ name, location: ctx.evalLocation?.(index) ?? { file: ctx.promptPath } });
  }
  return bindEvalSpecs(specs, ctx);
}

/** One eval to bind: its name, where it is written, and options over its score schema's. */
export interface EvalSpec {
  name: string;
  location: SourceLocation;
  /** Options over `scores.<name>.options` (a dataset row's eval); errors in them point at `location`. */
  options?: Record<string, unknown>;
}

/** `bindEvals` for evals that may carry their own options (a dataset row's `evals`); each spec is bound as given. */
export async function bindEvalSpecs(specs: readonly EvalSpec[], ctx: BindContext): Promise<BindResult> {
  const evals: BoundEval[] = [];
  const warnings: string[] = [];
  const isolate = isolation(ctx);
  for (const spec of specs) evals.push(await bindOne(spec, ctx, warnings, isolate));
  return { evals, warnings, close: async () => isolate?.pool.close() };
}

async function bindOne(spec: EvalSpec, ctx: BindContext, warnings: string[], isolate: ReturnType<typeof isolation>): Promise<BoundEval> {
  const { name, location } = spec;
  const schema = Object.hasOwn(ctx.scores, name) ? ctx.scores[name] : undefined;
  if (schema === undefined) warnings.push(`eval ${name} has no score schema in agentmark.json; its results are shown untyped`);

  const user = Object.hasOwn(ctx.userScorers, name) ? ctx.userScorers[name] : undefined;
  if (user !== undefined) {
    if (spec.options !== undefined && Object.keys(spec.options).length > 0) {
      throw new EvalBindingError('EVAL_INVALID_OPTIONS', `eval "${name}": the scorer agentmark.config registers under this name takes no options`, {
        location,
        hint: 'options are for built-in scorers; read what the row needs from its metadata in the scorer instead',
      });
    }
    if (schema?.scorer !== undefined) {
      warnings.push(`eval ${name}: scores.${name}.scorer "${schema.scorer}" is ignored because agentmark.config registers a scorer named ${name}`);
    }
    return isolate ? isolate.bind(name, schema) : { name, scorer: user, schema, source: 'user' };
  }

  const builtinName = schema?.scorer ?? name;
  const builtin = Object.hasOwn(builtinScorers, builtinName) ? builtinScorers[builtinName] : undefined;
  if (builtin === undefined && schema?.scorer !== undefined) {
    const close = closestMatch(schema.scorer, Object.keys(builtinScorers));
    throw new EvalBindingError('EVAL_UNKNOWN_SCORER', `eval "${name}": scores.${name}.scorer "${schema.scorer}" is not a built-in scorer`, {
      location,
      hint: `${close === undefined ? '' : `did you mean "${close}"? `}built-ins: ${Object.keys(builtinScorers).join(', ')}`,
    });
  }
  if (builtin === undefined && ctx.clientFailure !== undefined) {
    const { file, reason } = ctx.clientFailure;
    throw new EvalBindingError('EVAL_CLIENT_NOT_LOADED', `eval "${name}" has no scorer here, and ${basename(file)}, which may register it, could not be loaded: ${reason}`, {
      location,
      hint: `install what ${basename(file)} imports (npm install), or register a scorer named ${name} in agentmark.config.ts`,
    });
  }
  if (builtin === undefined) {
    const bindable = [
      ...Object.keys(ctx.userScorers),
      ...Object.entries(ctx.scores).filter(([, s]) => s.scorer !== undefined).map(([key]) => key),
      ...Object.keys(builtinScorers),
    ];
    const available = [...new Set(bindable)];
    const close = closestMatch(name, available);
    throw new EvalBindingError('EVAL_NOT_FOUND', `eval "${name}" has no scorer; available: ${available.join(', ')}`, {
      location,
      hint:
        close === undefined
          ? `register a scorer named ${name} in agentmark.config.ts, or set scores.${name}.scorer to a built-in in agentmark.json`
          : `did you mean "${close}"?`,
    });
  }
  if (schema?.type === 'categorical' && !LABEL_SCORERS.has(builtin.name)) {
    const field = schema.scorer !== undefined ? 'scorer' : 'type';
    throw new EvalBindingError('EVAL_NO_LABEL', `eval "${name}": scores.${name} is categorical, but the built-in "${builtin.name}" gives no label`, {
      location: ctx.projectFile === undefined ? location : await locateScoreField(ctx.projectFile, name, field),
      hint: `a categorical score is read from the label a scorer returns: use scorer "llm_judge", register a scorer named ${name} in agentmark.config.ts that returns { label }, or make scores.${name} boolean or numeric`,
    });
  }
  const options = spec.options === undefined ? (schema?.options ?? {}) : { ...schema?.options, ...spec.options };
  const scorer = await createBuiltin(name, builtin, options, schema, ctx, spec.options === undefined ? undefined : location);
  return { name, scorer, schema, source: 'builtin', builtin: builtin.name, ...(builtin.callsModel ? {} : { inline: true }) };
}

/**
 * User scorers run in worker threads when their config file is known (the CLI always knows it):
 * the pool starts its first worker on the first eval, so binding alone (validate) starts none.
 */
function isolation(ctx: BindContext): { pool: ScorerPool; bind(name: string, schema: ScoreSchema | undefined): BoundEval } | undefined {
  if (ctx.configFile === undefined || Object.keys(ctx.userScorers).length === 0) return undefined;
  const pool = new ScorerPool({ root: ctx.projectRoot }, ScorerPool.sizeFor(ctx.concurrency ?? 10));
  return {
    pool,
    bind: (name, schema) => ({
      name,
      scorer: (params, control) => pool.run(name, params, isEvalControl(control) ? control : { signal: new AbortController().signal, started: () => undefined }) as Promise<EvalResult>,
      schema,
      source: 'user',
      clockOnStart: true,
    }),
  };
}

function isEvalControl(control: ScorerControl | undefined): control is EvalControl {
  return control !== undefined && typeof (control as Partial<EvalControl>).started === 'function';
}
