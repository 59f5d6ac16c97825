export { otelListener, type OtelListener, type OtelListenerOptions } from './otel-listener.js';
export { exportStoredRun, type ExportStoredRunOptions } from './export-stored-run.js';
export { resolveOtelSettings, type OtelSettings, type OtelFlags, type OtlpProtocol } from './settings.js';
