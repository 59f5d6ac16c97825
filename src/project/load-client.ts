import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Scorer } from '../scoring/types.js';
import { scorersFromRegistry } from './client-registry.js';
import { collectLocalImports } from './config-imports.js';
import { projectJiti } from './project-jiti.js';
import { importFresh } from './import-fresh.js';

/** AgentMark's TypeScript/JavaScript client files, looked for in this order (Python clients are not read). */
export const CLIENT_FILES = ['agentmark.client.ts', 'agentmark.client.mts', 'agentmark.client.js', 'agentmark.client.mjs'];

/** An AgentMark client's eval functions, or why they could not be read. */
export interface LoadedClient {
  /** Absolute path of agentmark.client.*. */
  path: string;
  /** The client file and the project-local modules it imports (watch mode reloads on their edits). */
  files: string[];
  /** Its eval functions as scorers, by name; empty when it failed to load or registers none. */
  scorers: Record<string, Scorer>;
  /** Why loading it failed (a package it imports is missing, its code threw...). */
  error?: string;
  /** Which export is the client: `client`, else the default export; undefined when neither has getEvalRegistry(). */
  exportName?: 'client' | 'default';
}

/** The project's AgentMark client file, or undefined when it has none. */
export async function findClientFile(root: string): Promise<string | undefined> {
  for (const name of CLIENT_FILES) {
    const file = path.join(root, name);
    if (await stat(file).then((s) => s.isFile(), () => false)) return file;
  }
  return undefined;
}

/**
 * Loads `agentmark.client.*` with the loader our config uses (jiti: TypeScript, no build) and
 * reads its eval functions through the public accessor of the exported client
 * (`client`, else the default export): `getEvalRegistry()`. Never throws: a client that cannot
 * load (a package it imports is not installed, a loader that wants a server) is reported in
 * `error`, so a run that needs none of its scorers goes on.
 */
export async function loadClient(root: string, options: { fsCache?: boolean } = {}): Promise<LoadedClient | undefined> {
  const file = await findClientFile(root);
  if (!file) return undefined;
  const files = await collectLocalImports(file, root);
  const failed = (error: string): LoadedClient => ({ path: file, files, scorers: {}, error });
  let mod: unknown;
  try {
    const jiti = projectJiti(file, root, options.fsCache ?? false);
    mod = await importFresh(jiti, file);
  } catch (error) {
    return failed(reasonOf(error));
  }
  const picked = pickClient(mod);
  const client = picked?.client;
  const accessor = client?.['getEvalRegistry'];
  if (typeof accessor !== 'function') return { path: file, files, scorers: {} };
  let registry: unknown;
  try {
    registry = await (accessor as () => unknown).call(client);
  } catch (error) {
    return failed(`getEvalRegistry() threw: ${reasonOf(error)}`);
  }
  const scorers = scorersFromRegistry(registry, await knownEvalNames(root));
  if (scorers === undefined) return failed(`getEvalRegistry() returned ${typeof registry}, not an object of eval functions`);
  return { path: file, files, scorers, exportName: picked?.exportName ?? 'client' };
}

function pickClient(mod: unknown): { client: Record<string, unknown>; exportName: 'client' | 'default' } | undefined {
  if (typeof mod !== 'object' || mod === null) return undefined;
  const record = mod as Record<string, unknown>;
  const exportName = record['client'] !== undefined ? 'client' : 'default';
  const client = record[exportName];
  return typeof client === 'object' && client !== null ? { client: client as Record<string, unknown>, exportName } : undefined;
}

/**
 * Eval names agentmark.json declares (`scores` keys and the older `evals` list): an
 * `EvalRegistry` read through `get(name)` cannot be listed, so these are the names asked for.
 */
async function knownEvalNames(root: string): Promise<string[]> {
  try {
    const file = JSON.parse(await readFile(path.join(root, 'agentmark.json'), 'utf8')) as { scores?: unknown; evals?: unknown };
    const scores = typeof file.scores === 'object' && file.scores !== null ? Object.keys(file.scores) : [];
    const evals = Array.isArray(file.evals) ? file.evals.filter((e): e is string => typeof e === 'string') : [];
    return [...new Set([...scores, ...evals])];
  } catch {
    return [];
  }
}

/**
 * The first line of the error, without the require stack jiti and Node append: a missing
 * package reads "Cannot find module '@agentmark-ai/…'".
 */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).trim() || 'unknown error';
}
