import { extname } from 'node:path';
import { UsageError } from '../errors/index.js';
import { reporterNames, type ReporterName } from '../report/index.js';

/** The report format a file name asks for, by its extension. */
const byExtension: Record<string, ReporterName> = {
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
  '.xml': 'junit',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
};

/**
 * `--format` when given; else the format `-o <file>`'s extension names (`report.json` → json,
 * `.xml` → junit, `.md` → markdown); else the table. An unknown `--format` is a usage error.
 */
export function reportFormat(format: string | undefined, output: string | undefined): ReporterName {
  if (format === undefined) return (output === undefined ? undefined : byExtension[extname(output).toLowerCase()]) ?? 'table';
  if (!(reporterNames as readonly string[]).includes(format)) {
    throw new UsageError('USAGE_BAD_VALUE', `--format ${format} is not a report format`, {
      hint: `use one of: ${reporterNames.join(', ')}`,
    });
  }
  return format as ReporterName;
}
