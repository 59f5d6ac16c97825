import { readFileSync } from 'node:fs';
import { packageFile } from '../package-paths.js';

/**
 * This package's version, for `service.version`. Read here rather than through cli/version.ts:
 * importing that from a lazily loaded chunk makes the bundle split it out of the start-up chunk.
 */
export function packageVersion(): string {
  try {
    const parsed = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
