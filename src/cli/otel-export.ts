import type { RunEvent, RunListener } from '../experiment/events.js';
import type { LoadedConfig } from '../project/index.js';
import type { OutStream } from './io.js';

/** The `--otel*` flags as parsed. */
export interface OtelCliFlags {
  otel?: boolean | undefined;
  'otel-content'?: boolean | undefined;
  'otel-timeout'?: number | undefined;
}

export interface CliOtel {
  /** Adds the trace export to a run's listener. */
  wrap(listener: RunListener): RunListener;
  /** Waits for the export (at most the deadline) and prints its one warning line, if any. */
  finish(stderr: OutStream): Promise<void>;
}

/**
 * `--otel`: loads the OpenTelemetry packages (only now, so runs without it never load them) and
 * returns the listener that exports each run as a trace. Undefined without the flag.
 */
export async function startOtel(flags: OtelCliFlags, env: NodeJS.ProcessEnv, projectRoot: string, config: LoadedConfig): Promise<CliOtel | undefined> {
  if (!flags.otel) return undefined;
  const { otelListener, resolveOtelSettings } = await import('../otel/index.js');
  const settings = resolveOtelSettings(env, {
    ...(flags['otel-timeout'] === undefined ? {} : { timeoutMs: Math.round(flags['otel-timeout'] * 1000) }),
    ...(flags['otel-content'] ? { content: true } : {}),
  });
  const otel = otelListener({ settings, projectRoot, env, judgeModel: config.judgeModel, baseURL: config.baseURL });
  return {
    wrap: (listener) => (event: RunEvent) => {
      const reported = listener(event);
      if (reported instanceof Promise) return reported.then(() => otel.listener(event));
      return otel.listener(event);
    },
    async finish(stderr) {
      const warning = await otel.finish();
      if (warning !== undefined) stderr.write(`warning: ${warning}\n`);
    },
  };
}
