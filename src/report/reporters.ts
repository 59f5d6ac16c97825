import { createCsvReporter } from './csv-reporter.js';
import { createHtmlReporter } from './html-reporter.js';
import { createJsonReporter } from './json-reporter.js';
import { createJsonlReporter } from './jsonl-reporter.js';
import { createJunitReporter } from './junit-reporter.js';
import { createMarkdownReporter } from './markdown-reporter.js';
import { createTableReporter } from './table-reporter.js';
import type { ReporterFactory, ReporterName } from './types.js';

/** Output formats by `--format` name; a new format is one new file and one line here. */
export const reporters: Record<ReporterName, ReporterFactory> = {
  table: createTableReporter,
  json: createJsonReporter,
  jsonl: createJsonlReporter,
  csv: createCsvReporter,
  junit: createJunitReporter,
  markdown: createMarkdownReporter,
  html: createHtmlReporter,
};

export const reporterNames = Object.keys(reporters) as ReporterName[];

export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(reporters, name);
}
