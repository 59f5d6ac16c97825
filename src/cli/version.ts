import { readFileSync } from 'node:fs';
import { packageFile } from '../package-paths.js';

/** The package version, read from package.json next to dist/ or src/. */
export function packageVersion(): string {
  const text = readFileSync(packageFile('package.json'), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') {
    return parsed.version;
  }
  return '0.0.0';
}
