/** What every scenario gets: the CLI to run, the loopback server, and the shared baseline. */
import type { BenchServer } from './server.js';

export interface BenchContext {
  /** The package's bin, `dist/bundle/agentmark.cjs` (it loads the CLI bundle `cli.cjs`). */
  bin: string;
  server: BenchServer;
  /** Median wall time of `node -e 0`, measured in this bench run (set by the start-up scenario). */
  nodeStartMs: number | undefined;
  /** Median peak RSS (MB) of each experiment scenario measured so far in this bench run, by id. */
  peakRssMb: Record<string, number>;
  log(message: string): void;
}

/** The CLI's environment: only what it needs, pointed at the loopback server. */
export function cliEnv(server: BenchServer): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'bench',
  };
}
