import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { RunManifest } from '../store/types.js';
import type { OutputStream, Reporter, ReporterOptions } from './types.js';

/**
 * `--format html`: one self-contained HTML file of the run (its statistics, every row, each
 * row's page), for CI artifacts. It is written from the run's folder after the run ends; the
 * viewer's code that builds it loads only now.
 */
export function createHtmlReporter(out: OutputStream, options: ReporterOptions = {}): Reporter {
  return {
    async onRunEnd(summary, info, rows) {
      const runDir = resolve(options.cwd ?? process.cwd(), info.runDir);
      const manifest = JSON.parse(await readFile(resolve(runDir, 'manifest.json'), 'utf8')) as RunManifest;
      // Runs live in <root>/.agentmark/runs/<id>: prompts are found from the project root.
      const projectRoot = resolve(runDir, '..', '..', '..');
      const { buildReportData, renderReportHtml } = await import('../view/index.js');
      try {
        const data = await buildReportData(projectRoot, { ...manifest, summary }, rows());
        out.write(await renderReportHtml(data));
      } catch (error) {
        // The whole run is one string in the page: past V8's longest string it cannot be made.
        if (error instanceof RangeError && /Invalid string length/.test(error.message)) throw tooLarge(summary.rows, error);
        throw error;
      }
    },
  };
}

function tooLarge(rows: number, cause: RangeError): UsageError {
  return new UsageError('USAGE_REPORT_TOO_LARGE', `--format html: the run's ${rows.toLocaleString('en-US')} rows do not fit in one HTML file (its data is longer than the longest string Node can build)`, {
    hint: 'write it as --format json, jsonl or csv (streamed, any size), or open the run with `agentmark view`',
    cause,
  });
}
