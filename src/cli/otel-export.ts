import type { RunEvent, RunListener } from '../experiment/events.js';
import type { LoadedConfig } from '../project/index.js';
import type { OutStream } from './io.js';

/** The `--otel*` flags as parsed. */
export interface OtelCliFlags {
  otel?: boolean | undefined;
  'otel-content'?: boolean | undefined;
  'otel-timeout'?: number | undefined;
  'otel-trace-per'?: string | undefined;
}

export interface CliOtel {
  /** Adds the trace export to a run's listener. */
  wrap(listener: RunListener): RunListener;
  /** Waits for the export (at most the deadline) and prints its one warning line, if any. */
  finish(stderr: OutStream): Promise<void>;
}

/**
 * `--otel`, or the config's `otel: { … }`: loads the OpenTelemetry packages (only now, so runs
 * without export never load them) and returns the listener that exports each run as a trace.
 * The flags win over the config, the config over the `OTEL_EXPORTER_OTLP_*` variables.
 * Undefined when export is off.
 */
export async function startOtel(flags: OtelCliFlags, env: NodeJS.ProcessEnv, projectRoot: string, config: LoadedConfig): Promise<CliOtel | undefined> {
  const fromConfig = config.otel;
  if (!flags.otel && (fromConfig === undefined || fromConfig.enabled === false)) return undefined;
  const { otelListener, resolveOtelSettings } = await import('../otel/index.js');
  const timeoutSeconds = flags['otel-timeout'] ?? fromConfig?.timeoutSeconds;
  const settings = resolveOtelSettings(env, {
    ...(fromConfig?.endpoint === undefined ? {} : { endpoint: fromConfig.endpoint }),
    ...(fromConfig?.protocol === undefined ? {} : { protocol: fromConfig.protocol }),
    ...(fromConfig?.headers === undefined ? {} : { headers: fromConfig.headers }),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: Math.round(timeoutSeconds * 1000) }),
    ...(flags['otel-content'] || fromConfig?.content ? { content: true } : {}),
    ...((flags['otel-trace-per'] ?? fromConfig?.tracePer) === undefined ? {} : { tracePer: flags['otel-trace-per'] ?? fromConfig?.tracePer }),
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
