import type { EvalParams } from '../types.js';

/** What a scorer worker is started with. */
export interface WorkerSetup {
  /** Project root: the worker loads agentmark.config.* from it with the same loader as the CLI. */
  root: string;
}

/** Main thread → worker. */
export type ToWorker =
  | { type: 'run'; id: number; name: string; params: EvalParams }
  | { type: 'cancel'; id: number }
  | { type: 'ping'; id: number };

/** Worker → main thread. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  /** The worker took the task: its event loop is free, so the eval's clock starts now. */
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'threw'; id: number; message: string }
  | { type: 'pong'; id: number };
