import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunListener } from '../experiment/events.js';
import type { RunManifest } from '../store/types.js';
import { experimentKeyOf } from './experiment-key.js';
import { packageVersion } from './package-version.js';
import { createTraceExport, exportWarning, type TraceExport } from './exporter.js';
import { loadRenderMessages } from './messages.js';
import { RunTrace } from './run-trace.js';
import { serverOf } from './server-of.js';
import type { OtelSettings } from './settings.js';

export interface OtelListenerOptions {
  settings: OtelSettings;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  /** The config's `judgeModel` and `baseURL`. */
  judgeModel?: string | undefined;
  baseURL?: string | undefined;
}

export interface OtelListener {
  listener: RunListener;
  /** Waits for the queued spans (at most the deadline) and returns the one warning line, if any. */
  finish(): Promise<string | undefined>;
}

/**
 * Sends each run the listener hears of as one trace. Spans are built from the run's manifest
 * and the rows as they are recorded; nothing here can fail or slow the run beyond the export
 * deadline at the end (a failure to read the manifest skips the trace).
 */
export function otelListener(options: OtelListenerOptions): OtelListener {
  let exporting: Promise<TraceExport> | undefined;
  const exporter = (): Promise<TraceExport> => (exporting ??= createTraceExport(options.settings, packageVersion()));
  let current: { trace: RunTrace; runDir: string } | undefined;
  let problem: string | undefined;
  const listener: RunListener = (event) => {
    if (event.type === 'run-start') {
      return (async () => {
        try {
          const manifest = await readManifest(event.info.runDir);
          const { tracer } = await exporter();
          const trace = new RunTrace(manifest, {
            tracer,
            serverOf: serverOf(options.env, options.baseURL),
            content: options.settings.content,
    tracePer: options.settings.tracePer,
    renderMessages: options.settings.content ? await loadRenderMessages(options.projectRoot, manifest) : undefined,
            judgeModel: options.judgeModel,
            experimentKey: await experimentKeyOf(options.projectRoot, manifest),
          });
          current = { trace, runDir: event.info.runDir };
        } catch (error) {
          current = undefined;
          problem = `otel: no trace for run ${event.info.runId} (${error instanceof Error ? error.message : String(error)})`;
        }
      })();
    }
    if (event.type === 'row-end') current?.trace.addRow(event.row);
    else if (event.type === 'run-end' && current) {
      const { trace } = current;
      current = undefined;
      return readManifest(event.info.runDir).then(
        (manifest) => trace.end(manifest, event.summary),
        () => undefined,
      );
    }
    return undefined;
  };
  return {
    listener,
    async finish() {
      if (!exporting) return problem;
      // A run that broke off without run-end (a failed write, a bug) still closes its root span.
      if (current) {
        const { trace, runDir } = current;
        current = undefined;
        const manifest = await readManifest(runDir).catch(() => undefined);
        if (manifest) trace.end(manifest, manifest.summary);
      }
      const report = await (await exporting).finish();
      return exportWarning(report, options.settings.url, options.settings.timeoutMs) ?? problem;
    },
  };
}

async function readManifest(runDir: string): Promise<RunManifest> {
  return JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8')) as RunManifest;
}
