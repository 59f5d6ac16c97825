import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
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
      const data = await buildReportData(projectRoot, { ...manifest, summary }, rows());
      out.write(await renderReportHtml(data));
    },
  };
}
