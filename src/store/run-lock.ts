import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RunStoreError } from './store-error.js';

export const LOCK_FILE = 'run.lock';
const TAKEOVER_PREFIX = `${LOCK_FILE}.takeover-`;

/** Who owns a run folder: written into `run.lock` when the lock is taken. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO 8601: when the owner took the lock. */
  since: string;
  /**
   * The owner's start time as the kernel counts it (Linux `/proc/<pid>/stat`), so a pid reused
   * by an unrelated process after the owner died is not mistaken for the owner.
   */
  procStart?: string;
}

export interface LockDeps {
  pid?: number;
  host?: string;
  now?: () => number;
  /** Whether a process with this pid (and, where known, this start time) is alive on this host. */
  isAlive?: (owner: LockOwner) => boolean;
}

/** Locks this process holds, released by the `exit` listener even on `process.exit()`. */
const held = new Set<RunLock>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lock of held) lock.release();
  });
}

/**
 * One run folder is written by one process at a time: two writers would both run the rows that
 * are not done yet and append them twice. The lock is a file created with `link()`, which fails
 * atomically when the file exists and never shows a half-written owner to another process.
 *
 * A lock whose owner is gone (same host, pid not running: a kill -9) is stale and taken over.
 * Taking over goes through a marker file named after the stale lock, created the same atomic
 * way, so of two processes finding the same stale lock only one replaces it; the marker stays
 * until the new owner releases, so a slow loser cannot replace the new lock either.
 */
export class RunLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Set when this lock replaced a stale one: whose it was. */
  readonly tookOverFrom: LockOwner | undefined;
  #marker: string | undefined;
  #released = false;

  private constructor(path: string, owner: LockOwner, tookOverFrom: LockOwner | undefined, marker: string | undefined) {
    this.path = path;
    this.owner = owner;
    this.tookOverFrom = tookOverFrom;
    this.#marker = marker;
  }

  /** Takes the lock of `dir`, or throws STORE_RUN_LOCKED naming the process that holds it. */
  static acquire(dir: string, runId: string, deps: LockDeps = {}): RunLock {
    const path = join(dir, LOCK_FILE);
    const pid = deps.pid ?? process.pid;
    const owner: LockOwner = {
      pid,
      host: deps.host ?? hostname(),
      since: new Date((deps.now ?? Date.now)()).toISOString(),
      ...(deps.pid === undefined ? withProcStart(pid) : {}),
    };
    const isAlive = deps.isAlive ?? isOwnerAlive;
    const text = `${JSON.stringify(owner)}\n`;
    // A few rounds: another process may release or take over between our steps.
    for (let round = 0; round < 5; round++) {
      if (createExclusive(path, text, pid)) return RunLock.#hold(new RunLock(path, owner, undefined, undefined));
      const current = readOwner(path);
      if (current === 'missing') continue;
      if (current === 'unreadable') {
        throw new RunStoreError('STORE_RUN_LOCKED', `run ${runId} is locked, but its lock file cannot be read`, {
          location: { file: path },
          hint: `if no other agentmark process is working on this run, delete ${path}`,
        });
      }
      if (current.host !== owner.host || isAlive(current)) throw lockedError(runId, path, current);
      // Stale: the owner was killed. Only the process that creates the marker replaces it.
      const marker = claimTakeover(dir, current, text, pid, owner.host, isAlive);
      if (marker === undefined) continue;
      const again = readOwner(path);
      if (typeof again === 'object' && sameOwner(again, current)) {
        writeAndRename(path, text, pid);
        // Re-read the winner's token: the lock is ours only if the file now names us.
        const written = readOwner(path);
        if (typeof written === 'object' && sameOwner(written, owner)) return RunLock.#hold(new RunLock(path, owner, current, marker));
      }
      // Someone released or replaced it meanwhile: our marker guards nothing.
      removeQuietly(marker);
    }
    const last = readOwner(path);
    throw typeof last === 'object'
      ? lockedError(runId, path, last)
      : new RunStoreError('STORE_RUN_LOCKED', `run ${runId}: could not take its lock; another process is taking it at the same time`, {
          location: { file: path },
          hint: 'try again in a moment',
        });
  }

  static #hold(lock: RunLock): RunLock {
    installExitHook();
    held.add(lock);
    return lock;
  }

  /** Removes the lock (and a takeover marker). Synchronous so it also runs in an `exit` listener. Safe to call twice. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    held.delete(this);
    // Only our own lock: after a takeover by someone else (our pid thought dead) it is theirs.
    const current = readOwner(this.path);
    if (typeof current === 'object' && sameOwner(current, this.owner)) removeQuietly(this.path);
    // The marker goes after the lock (see the class comment). One left by a new owner that was
    // killed too is only a small file: its name is that of a lock that no longer exists.
    if (this.#marker !== undefined) removeQuietly(this.#marker);
    this.#marker = undefined;
  }
}

/**
 * Creates the takeover marker of the stale `owner`'s lock and returns its path, or undefined when
 * another live process holds it (it is taking over now). A marker whose creator died before it
 * finished (killed mid-takeover) would block every later resume: it is stale in turn, and is
 * claimed the same way, through a marker named after its creator. Depth-bounded: each level
 * needs a process killed inside the few milliseconds of a takeover.
 */
function claimTakeover(dir: string, owner: LockOwner, text: string, pid: number, host: string, isAlive: (owner: LockOwner) => boolean): string | undefined {
  let stale = owner;
  for (let depth = 0; depth < 8; depth++) {
    const marker = join(dir, `${TAKEOVER_PREFIX}${stale.pid}-${Date.parse(stale.since) || 0}`);
    if (createExclusive(marker, text, pid)) return marker;
    const creator = readOwner(marker);
    // Gone meanwhile (released), unreadable, or a live process taking over: not ours to claim.
    if (typeof creator !== 'object' || creator.host !== host || isAlive(creator)) return undefined;
    stale = creator;
  }
  return undefined;
}

export function lockedError(runId: string, path: string, owner: LockOwner): RunStoreError {
  return new RunStoreError('STORE_RUN_LOCKED', `run ${runId} is in use by process ${owner.pid} on ${owner.host} since ${owner.since}`, {
    location: { file: path },
    hint: `wait for that process to finish, or stop it (Ctrl-C) and then continue with --resume ${runId}; two processes writing one run would run its rows twice`,
  });
}

/** Creates `path` holding `text`, failing when it exists; the content is complete the moment it appears. */
function createExclusive(path: string, text: string, pid: number): boolean {
  const tmp = `${path}.${pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text, { flag: 'wx' });
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    removeQuietly(tmp);
  }
}

function writeAndRename(path: string, text: string, pid: number): void {
  const tmp = `${path}.${pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text, { flag: 'wx' });
  renameSync(tmp, path);
}

function readOwner(path: string): LockOwner | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return 'unreadable';
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'string') return value as LockOwner;
  } catch {
    // reported below
  }
  return 'unreadable';
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/** Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot); undefined off Linux. */
function procStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function withProcStart(pid: number): { procStart?: string } {
  const start = procStartOf(pid);
  return start === undefined ? {} : { procStart: start };
}

/** Signal 0 checks existence only; EPERM means it exists under another user. */
function isOwnerAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.procStart === undefined) return true;
  const start = procStartOf(owner.pid);
  return start === undefined || start === owner.procStart;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * Who holds the lock of `dir` and whether that process still runs, for showing a run's state
 * (a run left `running` by a killed process is interrupted). Undefined without a readable lock.
 * An owner on another host is taken as alive: it cannot be checked from here.
 */
export function readLockHolder(dir: string, isAlive: (owner: LockOwner) => boolean = isOwnerAlive): { owner: LockOwner; alive: boolean } | undefined {
  const owner = readOwner(join(dir, LOCK_FILE));
  if (typeof owner !== 'object') return undefined;
  return { owner, alive: owner.host !== hostname() || isAlive(owner) };
}
