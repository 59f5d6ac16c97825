import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigError } from '../errors/index.js';

export const PROJECT_FILE = 'agentmark.json';

/**
 * The nearest folder, from `startDir` upwards, that holds `agentmark.json`.
 * Walking up lets commands run from any subfolder, like git and npm do.
 */
export async function findProjectRoot(startDir: string): Promise<string> {
  const start = path.resolve(startDir);
  let dir = start;
  for (;;) {
    if (await isFile(path.join(dir, PROJECT_FILE))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new ConfigError('CONFIG_NOT_FOUND', `no ${PROJECT_FILE} found in ${start} or any folder above it`, {
    hint: 'run `agentmark init` to start a project here, or pass --project <dir> to use one elsewhere',
  });
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
