import type { ReporterName } from '../report/index.js';

/**
 * Several experiments in one `--format json` or `junit` report must still be one document:
 * json becomes an array of the per-experiment objects, junit one <testsuites> holding every
 * <testsuite> with the totals summed. csv is written as one document from the runs' results
 * files (see writeCsv); table and jsonl are plain concatenations already.
 */
export function combineDocuments(format: ReporterName, documents: string[]): string {
  if (documents.length === 1 || (format !== 'json' && format !== 'junit')) return documents.join('');
  if (format === 'json') return `[\n${documents.map((doc) => doc.trim()).join(',\n')}\n]\n`;
  return combineJunit(documents);
}

const SUITES = /<testsuites\b([^>]*)>\n?([\s\S]*?)<\/testsuites>/;

function combineJunit(documents: string[]): string {
  const totals = { tests: 0, failures: 0, errors: 0, time: 0 };
  let name = 'agentmark';
  const suites: string[] = [];
  for (const doc of documents) {
    const match = SUITES.exec(doc);
    if (!match) continue;
    const attributes = match[1] ?? '';
    name = /\bname="([^"]*)"/.exec(attributes)?.[1] ?? name;
    for (const key of ['tests', 'failures', 'errors', 'time'] as const) {
      totals[key] += Number(new RegExp(`\\b${key}="([^"]*)"`).exec(attributes)?.[1] ?? 0);
    }
    suites.push((match[2] ?? '').replace(/\s+$/, ''));
  }
  const head = `<testsuites name="${name}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${totals.time.toFixed(3)}">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join('\n')}\n</testsuites>\n`;
}
