import { compileInputSchema } from './input-validator.js';
import { DatasetError, PromptSyntaxError, type AgentmarkError } from '../errors/index.js';
import { validatePromptFrontmatterSchema } from '../generated/prompt-frontmatter-schema.validate.js';
import type { PromptFrontmatter, PromptKind } from './types.js';
import type { ParsedFrontmatter } from './frontmatter.js';

/** The config blocks a prompt may carry, in the order kinds are reported. */
export const CONFIG_BLOCKS = ['text_config', 'object_config', 'image_config', 'speech_config'] as const;
export type ConfigBlock = (typeof CONFIG_BLOCKS)[number];

const KIND_OF: Record<ConfigBlock, PromptKind> = {
  text_config: 'text',
  object_config: 'object',
  image_config: 'image',
  speech_config: 'speech',
};

interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
type Validator = ((data: unknown) => boolean) & { errors?: AjvErrorLike[] | null };

/**
 * Compiled ahead of time from schema/prompt-frontmatter.schema.json by `npm run schemas`
 * (scripts/compile-schemas.mjs): compiling it with ajv at every start cost more than validating.
 */
const frontmatterValidator: Validator = validatePromptFrontmatterSchema;

export interface FrontmatterCheck {
  frontmatter: PromptFrontmatter;
  kind: PromptKind;
  block: ConfigBlock;
}

/**
 * Checks the frontmatter against the published schema and the rules the schema cannot say
 * (exactly one config block, model_name, builtInModels). Every problem is collected so one
 * run shows them all.
 */
export async function validateFrontmatter(
  file: string,
  parsed: ParsedFrontmatter,
  builtInModels: readonly string[] = [],
): Promise<{ result?: FrontmatterCheck; errors: AgentmarkError[] }> {
  const data = parsed.data;
  const errors: AgentmarkError[] = [];
  const at = (path: (string | number)[]) => ({ file, line: parsed.lineOf(path) ?? 1, column: 1 });

  const blocks = CONFIG_BLOCKS.filter((key) => data[key] !== undefined);
  const block = blocks[0];
  if (blocks.length === 0) {
    errors.push(
      new PromptSyntaxError('PROMPT_NO_CONFIG', 'frontmatter has no config block; expected exactly one of text_config, object_config, image_config, speech_config', {
        location: { file, line: 1, column: 1 },
      }),
    );
  } else if (blocks.length > 1) {
    errors.push(
      new PromptSyntaxError('PROMPT_MULTIPLE_CONFIGS', `frontmatter has ${blocks.length} config blocks (${blocks.join(', ')}); expected exactly one`, {
        location: at([blocks[1] ?? '']),
      }),
    );
  }

  for (const key of blocks) {
    const config = data[key];
    if (config === null || typeof config !== 'object' || Array.isArray(config)) continue;
    const model = (config as Record<string, unknown>)['model_name'];
    if (model === undefined) {
      errors.push(
        new PromptSyntaxError('PROMPT_MISSING_MODEL', `${key}.model_name is missing`, {
          location: at([key]),
          hint: 'set it to provider/model, e.g. model_name: openai/gpt-4o-mini',
        }),
      );
    } else if (typeof model === 'string' && builtInModels.length > 0 && !builtInModels.includes(model)) {
      errors.push(
        new PromptSyntaxError('PROMPT_MODEL_NOT_ALLOWED', `model "${model}" is not in builtInModels of agentmark.json (allowed: ${builtInModels.join(', ')})`, {
          location: at([key, 'model_name']),
        }),
      );
    }
  }

  const validate = frontmatterValidator;
  if (!validate(data)) {
    for (const error of validate.errors ?? []) {
      // Already reported above with a clearer message.
      if (error.keyword === 'required' && error.params['missingProperty'] === 'model_name') continue;
      const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      const shown = path.length === 0 ? 'frontmatter' : path.join('.');
      errors.push(
        new PromptSyntaxError('PROMPT_FRONTMATTER_INVALID', `${shown}: ${describe(error)}`, {
          location: at(path),
        }),
      );
    }
  }

  // Compiled now (and cached for the dataset reader), so a broken schema is found even without a dataset.
  const inputSchema = data['input_schema'];
  if (inputSchema !== null && typeof inputSchema === 'object' && !Array.isArray(inputSchema)) {
    try {
      await compileInputSchema(inputSchema);
    } catch (error) {
      if (!(error instanceof DatasetError)) throw error;
      errors.push(new PromptSyntaxError('PROMPT_INPUT_SCHEMA_INVALID', error.message, { location: at(['input_schema']) }));
    }
  }

  if (errors.length > 0 || block === undefined) return { errors };
  return { result: { frontmatter: data as PromptFrontmatter, kind: KIND_OF[block], block }, errors };
}

function describe(error: AjvErrorLike): string {
  if (error.keyword === 'enum' && Array.isArray(error.params['allowedValues'])) {
    return `must be one of ${error.params['allowedValues'].map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return error.message ?? error.keyword;
}
