import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LanguageModel } from 'ai';
import { ConfigError } from '../errors/index.js';

/** An AI SDK provider package known by name, with the major version that pairs with `ai` 6. */
interface KnownProvider {
  packageName: string;
  /** Its `create…` export. */
  factory: string;
  /** Checked against the registry: these majors depend on @ai-sdk/provider 3, as `ai` 6 does. */
  major: number;
}

/** Prefixes whose package name and factory are known; any other `@ai-sdk/<prefix>` that is installed works too. */
export const KNOWN_PROVIDERS: Readonly<Record<string, KnownProvider>> = {
  anthropic: { packageName: '@ai-sdk/anthropic', factory: 'createAnthropic', major: 3 },
  google: { packageName: '@ai-sdk/google', factory: 'createGoogleGenerativeAI', major: 3 },
  mistral: { packageName: '@ai-sdk/mistral', factory: 'createMistral', major: 3 },
  groq: { packageName: '@ai-sdk/groq', factory: 'createGroq', major: 3 },
  xai: { packageName: '@ai-sdk/xai', factory: 'createXai', major: 3 },
};

/** `@ai-sdk/<prefix>` for a prefix that can name a package, else undefined. */
export function providerPackageName(prefix: string): string | undefined {
  return KNOWN_PROVIDERS[prefix]?.packageName ?? (/^[a-z0-9][a-z0-9-]*$/.test(prefix) ? `@ai-sdk/${prefix}` : undefined);
}

/**
 * The folder of `packageName` as Node would find it from the project root (its own
 * node_modules, then each parent's), or undefined. Resolved from the user's project, not from
 * this package, so the provider is the one their project installed.
 */
export function findInstalledPackage(root: string, packageName: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'node_modules', ...packageName.split('/'));
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(dir) === dir) return undefined;
  }
}

type ProviderModule = Record<string, unknown>;
type ProviderInstance = ((modelId: string) => LanguageModel) | { languageModel?: (modelId: string) => LanguageModel };

/**
 * Imports the installed provider package (its ESM entry when it has one) and returns a model
 * factory: the package's `create…` function called with our `fetch`, then asked for the model.
 */
export async function loadInstalledProvider(
  prefix: string,
  folder: string,
  fetchImpl: typeof fetch,
): Promise<(modelId: string) => LanguageModel> {
  const manifestPath = path.join(folder, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  const entry = path.join(folder, entryOf(manifest));
  const mod = (await import(pathToFileURL(entry).href)) as ProviderModule;
  const create = pickFactory(prefix, mod, manifestPath);
  const provider = create({ fetch: fetchImpl }) as ProviderInstance;
  return (modelId) => {
    if (typeof provider === 'function') return provider(modelId);
    if (typeof provider?.languageModel === 'function') return provider.languageModel(modelId);
    throw new ConfigError('CONFIG_PROVIDER_SHAPE', `the provider made by ${String(manifest['name'])} is neither a function nor has languageModel()`, {
      location: { file: manifestPath },
      hint: 'register the provider yourself under `providers` in agentmark.config.ts',
    });
  };
}

function pickFactory(prefix: string, mod: ProviderModule, manifestPath: string): (settings: { fetch: typeof fetch }) => unknown {
  const named = KNOWN_PROVIDERS[prefix]?.factory;
  if (named !== undefined && typeof mod[named] === 'function') return mod[named] as (settings: { fetch: typeof fetch }) => unknown;
  const creators = Object.keys(mod).filter((key) => /^create[A-Z]/.test(key) && typeof mod[key] === 'function');
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const match = creators.length === 1 ? creators[0] : creators.find((key) => squash(key) === `create${squash(prefix)}`);
  if (match !== undefined) return mod[match] as (settings: { fetch: typeof fetch }) => unknown;
  throw new ConfigError('CONFIG_PROVIDER_SHAPE', `cannot tell which export of the package makes the "${prefix}" provider (create… exports: ${creators.join(', ') || 'none'})`, {
    location: { file: manifestPath },
    hint: `register it under \`providers\` in agentmark.config.ts, e.g. providers: { ${prefix}: (id) => create…()(id) }`,
  });
}

/** The file `import` of the package loads: `exports` (import, node, default conditions), else `module`, else `main`. */
function entryOf(manifest: Record<string, unknown>): string {
  const exportsField = manifest['exports'];
  const root =
    exportsField !== null && typeof exportsField === 'object' && !Array.isArray(exportsField) && '.' in exportsField
      ? (exportsField as Record<string, unknown>)['.']
      : exportsField;
  const fromExports = pickCondition(root);
  if (fromExports !== undefined) return fromExports;
  for (const key of ['module', 'main']) {
    const value = manifest[key];
    if (typeof value === 'string') return value;
  }
  return 'index.js';
}

function pickCondition(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return undefined;
  const conditions = target as Record<string, unknown>;
  for (const condition of ['import', 'node', 'default']) {
    if (condition in conditions) {
      const found = pickCondition(conditions[condition]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
