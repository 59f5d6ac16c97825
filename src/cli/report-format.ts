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
  if (format !== undefined && !(reporterNames as readonly string[]).includes(format)) {
    throw new UsageError('USAGE_BAD_VALUE', `--format ${format} is not a report format`, {
      hint: `use one of: ${reporterNames.join(', ')}`,
    });
  }
  return outputFormat(format, output, reporterNames, 'a report') as ReporterName;
}

/**
 * The format of a command whose `-o` may name it (`compare … -o grid.html`), the same rule for
 * every command: `--format` when given, else the file's extension, else the table. An extension
 * that names another format than `--format`, or one the command does not write, is a usage error
 * rather than a file whose content its name belies.
 */
export function outputFormat<F extends string>(format: F | undefined, output: string | undefined, allowed: readonly F[], what: string): F | 'table' {
  const extension = output === undefined ? '' : extname(output).toLowerCase();
  const named = byExtension[extension];
  if (named !== undefined && format !== undefined && named !== format) {
    throw new UsageError('USAGE_CONFLICT', `--format ${format} does not match -o ${output}, which names ${named}`, {
      hint: `drop --format (the extension picks ${named}), or name the file for ${format}`,
    });
  }
  if (format !== undefined) return format;
  if (named === undefined) return 'table';
  if (!(allowed as readonly string[]).includes(named)) {
    throw new UsageError('USAGE_BAD_VALUE', `-o ${output}: ${what} cannot be written as ${named}`, {
      hint: `it writes ${allowed.join(', ')}; pick one with --format or the file's extension`,
    });
  }
  return named as F;
}
