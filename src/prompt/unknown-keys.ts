import { readFileSync } from 'node:fs';
import { closestMatch } from '../errors/index.js';
import { packageFile } from '../package-paths.js';
import { readFile } from 'node:fs/promises';
import { overlaidText } from '../source-overlay.js';
import { parseFrontmatter, type ParsedFrontmatter } from './frontmatter.js';
import type { PromptWarning } from './types.js';

/**
 * Keys AgentMark documents for each block (its prompt schemas). AgentMark drops any other key
 * silently, so an unknown key never fails a run here either; `validate` only refuses one that
 * is a likely typo of a known key (`temprature`, `datasets`).
 */
const AGENTMARK_KEYS: Record<string, readonly string[]> = {
  text_config: ['model_name', 'max_tokens', 'temperature', 'max_calls', 'top_p', 'top_k', 'presence_penalty', 'frequency_penalty', 'stop_sequences', 'seed', 'max_retries', 'tool_choice', 'tools'],
  object_config: ['model_name', 'max_tokens', 'temperature', 'max_calls', 'top_p', 'top_k', 'presence_penalty', 'frequency_penalty', 'stop_sequences', 'seed', 'max_retries', 'tools', 'schema', 'schema_name', 'schema_description'],
  test_settings: ['props', 'dataset', 'evals'],
};

/** The block's definition in our published frontmatter schema, whose keys are known too. */
const SCHEMA_DEFINITIONS: Record<string, string> = { text_config: 'textConfig', object_config: 'objectConfig', test_settings: 'testSettings' };

let known: Map<string, Set<string>> | undefined;

/** Ours (read from schema/prompt-frontmatter.schema.json, so a key added there is known here) and AgentMark's. */
export function knownKeys(): ReadonlyMap<string, ReadonlySet<string>> {
  if (known) return known;
  const schema = JSON.parse(readFileSync(packageFile('schema', 'prompt-frontmatter.schema.json'), 'utf8')) as {
    definitions?: Record<string, { properties?: Record<string, unknown> }>;
  };
  known = new Map(
    Object.entries(AGENTMARK_KEYS).map(([block, keys]) => [
      block,
      new Set([...keys, ...Object.keys(schema.definitions?.[SCHEMA_DEFINITIONS[block] ?? '']?.properties ?? {})]),
    ]),
  );
  return known;
}

/** Every unknown key of text_config, object_config and test_settings, at its line:col. */
export function findUnknownKeys(file: string, parsed: ParsedFrontmatter): PromptWarning[] {
  const found: PromptWarning[] = [];
  for (const [block, keys] of knownKeys()) {
    const value = parsed.data[block];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const key of Object.keys(value)) {
      if (keys.has(key)) continue;
      const close = closestMatch(key, keys);
      const position = parsed.positionOf([block, key]);
      found.push({
        file,
        ...(position ?? {}),
        message: `${block}.${key} is not a known key${close === undefined ? ' (AgentMark and this tool ignore it)' : `; did you mean "${close}"?`}`,
        ...(close === undefined ? {} : { likelyTypo: close }),
      });
    }
  }
  return found;
}

/**
 * The unknown keys of a prompt file that failed to load for another reason, so `validate`
 * still lists them with the rest; nothing when the frontmatter itself cannot be read.
 */
export async function unknownKeysOfFile(file: string): Promise<PromptWarning[]> {
  try {
    return findUnknownKeys(file, await parseFrontmatter(file, overlaidText(file) ?? (await readFile(file, 'utf8'))));
  } catch {
    return [];
  }
}
