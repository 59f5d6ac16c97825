import type { StoredRun } from '../store/index.js';
import { experimentKeyOf } from './experiment-key.js';
import { packageVersion } from './package-version.js';
import { createTraceExport, exportWarning } from './exporter.js';
import { loadRenderMessages } from './messages.js';
import { RunTrace } from './run-trace.js';
import { serverOf } from './server-of.js';
import type { OtelSettings } from './settings.js';

export interface ExportStoredRunOptions {
  settings: OtelSettings;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  judgeModel?: string | undefined;
  baseURL?: string | undefined;
}

/** Rows between two waits for the queue to drain, so a long run is not dropped for a full queue. */
const ROWS_PER_FLUSH = 256;

/**
 * Sends a stored run as the trace its live export would have been, with its original times
 * (back-filling history). Returns the warning line when spans did not get out.
 */
export async function exportStoredRun(run: StoredRun, options: ExportStoredRunOptions): Promise<{ spans: number; warning: string | undefined }> {
  const exporter = await createTraceExport(options.settings, packageVersion());
  const trace = new RunTrace(run.manifest, {
    tracer: exporter.tracer,
    serverOf: serverOf(options.env, options.baseURL),
    content: options.settings.content,
    tracePer: options.settings.tracePer,
    renderMessages: options.settings.content ? await loadRenderMessages(options.projectRoot, run.manifest) : undefined,
    judgeModel: options.judgeModel,
    experimentKey: await experimentKeyOf(options.projectRoot, run.manifest),
  });
  let rows = 0;
  for await (const row of run.rowsInOrder()) {
    trace.addRow(row);
    rows += 1;
    if (rows % ROWS_PER_FLUSH === 0) await exporter.flush();
  }
  trace.end(run.manifest, run.manifest.summary);
  const report = await exporter.finish();
  return { spans: report.ended, warning: exportWarning(report, options.settings.url, options.settings.timeoutMs) };
}
