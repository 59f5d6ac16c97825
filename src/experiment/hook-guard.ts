import { Script } from 'node:vm';
import { AgentmarkError } from '../errors/index.js';
import { formatSeconds } from '../format-seconds.js';

/** Added to --eval-timeout before a hook that never returns is stopped: a slow hook is not a stuck one. */
export const STUCK_GRACE_MS = 2000;

/**
 * A hook did not return: a synchronous endless loop, which blocks this thread (timers, signals,
 * everything) and which no promise race can cut off. The run stops: exit 2, or 130 when Ctrl-C
 * stopped it.
 */
export class HookStuckError extends AgentmarkError {
  readonly code: string;
  override readonly exitCode: number;
  constructor(hook: string, how: { limitMs: number; timeoutMs: number } | 'interrupted') {
    super(
      how === 'interrupted'
        ? `${hook} hook was interrupted (Ctrl-C) while it ran: stopped it; the run was stopped`
        : `${hook} hook did not return within ${formatSeconds(how.limitMs)} (--eval-timeout ${formatSeconds(how.timeoutMs)} plus ${formatSeconds(how.limitMs - how.timeoutMs)}): stopped it; the run was stopped`,
      how === 'interrupted' ? {} : { hint: `look for an endless loop in the ${hook} hook; rows finished before it are kept, \`--resume\` runs the others` },
    );
    this.code = how === 'interrupted' ? 'HOOK_INTERRUPTED' : 'HOOK_STUCK';
    this.exitCode = how === 'interrupted' ? 130 : 2;
  }
}

const SLOT = Symbol.for('agentmark.guarded-hook');
const slot = globalThis as { [SLOT]?: () => unknown };
let script: Script | undefined;

/**
 * Calls `fn` (a user hook) on this thread under V8's watchdog: node's `vm` timeout runs a native
 * thread that, after `timeoutMs + STUCK_GRACE_MS` of synchronous execution, terminates it, and
 * `breakOnSigint` lets Ctrl-C do the same. Hooks must run on this thread (what `setup` returns
 * reaches `teardown` as it is), and a worker thread cannot end a process blocked in JavaScript
 * with an exit code of its own; V8 can stop the loop and give control back to us. The watchdog
 * exists only while a hook's synchronous part runs: nothing for runs without hooks. A loop after
 * the hook's first `await` runs outside it and is not stopped (see the README).
 */
export function callGuarded(hook: string, fn: () => unknown, timeoutMs: number): unknown {
  script ??= new Script(`globalThis[Symbol.for('agentmark.guarded-hook')]()`, { filename: 'agentmark:hook' });
  const limitMs = timeoutMs + STUCK_GRACE_MS;
  const previous = slot[SLOT];
  slot[SLOT] = fn;
  try {
    return script.runInThisContext({ timeout: limitMs, breakOnSigint: true });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new HookStuckError(hook, { limitMs, timeoutMs });
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw new HookStuckError(hook, 'interrupted');
    throw error;
  } finally {
    slot[SLOT] = previous;
  }
}
