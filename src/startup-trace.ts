/**
 * `AGENTMARK_TRACE_STARTUP=1`: each phase of a command's start-up (modules loaded, project,
 * config, prompt, dataset checked, run opened, first model request...) is printed to stderr as
 * `startup <ms since the process started> <phase>`, to see where the time before the first
 * request goes. Off, each call is one boolean test.
 */
const enabled = process.env['AGENTMARK_TRACE_STARTUP'] === '1';
const seen = new Set<string>();

/** Notes that `phase` was reached (each phase once: the first time counts). */
export function traceStartup(phase: string): void {
  if (!enabled || seen.has(phase)) return;
  seen.add(phase);
  process.stderr.write(`startup ${performance.now().toFixed(1)} ms ${phase}\n`);
}
