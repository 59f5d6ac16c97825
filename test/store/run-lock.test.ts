import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { LOCK_FILE, RunLock, RunStore, RunStoreError } from '../../src/store/index.js';
import { REPO_ROOT } from '../helpers/temp-project.js';
import { manifest, onTempDir } from './fixtures.js';

let root: string;
onTempDir((dir) => {
  root = dir;
});

const ID = '20261130-031500.000-ab12cd';

/** The pid of a process that has exited (pids are not reused that fast). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function thrown(action: () => unknown): RunStoreError {
  try {
    action();
  } catch (error) {
    if (error instanceof RunStoreError) return error;
    throw error;
  }
  throw new Error('expected a RunStoreError');
}

describe('RunLock', () => {
  test('writes pid, host and start time, refuses a second owner naming the first, and is gone after release', async () => {
    const lock = RunLock.acquire(root, ID, { pid: 4242, host: 'box', now: () => Date.UTC(2026, 10, 30, 3, 15), isAlive: () => true });
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).toEqual({ pid: 4242, host: 'box', since: '2026-11-30T03:15:00.000Z' });

    const error = thrown(() => RunLock.acquire(root, ID, { pid: 5151, host: 'box', isAlive: () => true }));
    expect(error.code).toBe('STORE_RUN_LOCKED');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`run ${ID} is in use by process 4242 on box since 2026-11-30T03:15:00.000Z`);
    expect(error.hint).toContain(`--resume ${ID}`);

    lock.release();
    lock.release();
    expect(await readdir(root)).toEqual([]);
    RunLock.acquire(root, ID, { pid: 5151, host: 'box', isAlive: () => true }).release();
  });

  test('takes over a lock whose process is gone (same host), and says whose it was', async () => {
    const pid = deadPid();
    const stale = { pid, host: hostname(), since: '2026-11-30T03:15:00.000Z' };
    await writeFile(join(root, LOCK_FILE), JSON.stringify(stale));
    const lock = RunLock.acquire(root, ID);
    expect(lock.tookOverFrom).toEqual(stale);
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    lock.release();
    // The takeover marker goes with the lock.
    expect(await readdir(root)).toEqual([]);
  });

  test('a takeover cut short by a kill does not block later resumes: its marker is taken over in turn', async () => {
    // P0 held the lock and was killed; P1 found it stale, created the takeover marker and was
    // killed before replacing the lock. Both are dead: the next process must get the run.
    const since = '2026-11-30T03:15:00.000Z';
    const stale = { pid: deadPid(), host: hostname(), since };
    const killedTaker = { pid: deadPid(), host: hostname(), since: '2026-11-30T03:16:00.000Z' };
    await writeFile(join(root, LOCK_FILE), JSON.stringify(stale));
    const firstMarker = `${LOCK_FILE}.takeover-${stale.pid}-${Date.parse(since)}`;
    await writeFile(join(root, firstMarker), JSON.stringify(killedTaker));
    const lock = RunLock.acquire(root, ID);
    expect(lock.tookOverFrom).toEqual(stale);
    expect(JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    // Our own marker goes with the lock; the killed taker's is left, naming a lock that is gone.
    expect(await readdir(root)).toEqual([firstMarker]);
  });

  test('a takeover marker of a live process is left alone: that process is taking the run over', async () => {
    const since = '2026-11-30T03:15:00.000Z';
    const stale = { pid: deadPid(), host: hostname(), since };
    await writeFile(join(root, LOCK_FILE), JSON.stringify(stale));
    await writeFile(join(root, `${LOCK_FILE}.takeover-${stale.pid}-${Date.parse(since)}`), JSON.stringify({ pid: process.pid, host: hostname(), since }));
    expect(thrown(() => RunLock.acquire(root, ID, { pid: process.pid + 1 })).message).toMatch(/in use by process/);
  });

  test('a pid reused by another process does not keep a stale lock alive (start times differ)', async () => {
    // Our own pid is alive, but it did not start at tick 1.
    await writeFile(join(root, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-30T03:15:00.000Z', procStart: '1' }));
    const lock = RunLock.acquire(root, ID, { pid: process.pid + 1 });
    expect(lock.tookOverFrom?.procStart).toBe('1');
    lock.release();
  });

  test('never takes over a lock of another host: its process cannot be checked', async () => {
    await writeFile(join(root, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: 'elsewhere', since: '2026-11-30T03:15:00.000Z' }));
    expect(thrown(() => RunLock.acquire(root, ID)).message).toMatch(/in use by process \d+ on elsewhere since/);
  });

  test('an unreadable lock file is reported, not ignored', async () => {
    await writeFile(join(root, LOCK_FILE), 'garbage');
    const error = thrown(() => RunLock.acquire(root, ID));
    expect(error.message).toBe(`run ${ID} is locked, but its lock file cannot be read`);
    expect(error.hint).toContain(join(root, LOCK_FILE));
  });

  test('of 8 processes racing for one stale lock, exactly one gets it: 200 races under CPU load, never two owners', async () => {
    // Real processes, since the claim must hold across processes (threads of one process share
    // its pid, which the lock checks). 200 × 8 fresh node processes would take minutes, so 8
    // racers live through every round: the parent lays a stale lock in a fresh folder and tells
    // all 8 to take it at once; the winner holds it until every racer has answered (a winner
    // that let go early would rightly let a late racer in: the flake this test once had, when a
    // racer started 1.5 s late on a loaded machine, saw two successive owners, not two at once).
    const module = pathToFileURL(join(REPO_ROOT, 'dist', 'store', 'run-lock.js')).href;
    const racerScript = `
      const { RunLock } = await import(${JSON.stringify(module)});
      const held = new Map();
      process.on('message', (m) => {
        if (m.type === 'race') {
          try { held.set(m.round, RunLock.acquire(m.dir, 'x')); process.send({ round: m.round, got: true }); }
          catch (error) { process.send({ round: m.round, got: false, code: error.code ?? String(error) }); }
        } else if (m.type === 'release') { held.get(m.round)?.release(); held.delete(m.round); process.send({ round: m.round, released: true }); }
        else process.disconnect();
      });
      process.send({ ready: true });`;
    // CPU load: busy loops compete with the racers for the cores, so a racer is often descheduled mid-claim.
    const busy = Array.from({ length: 2 }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    type Answer = { round: number; got?: boolean; code?: string; released?: boolean; ready?: boolean };
    const racers = Array.from({ length: 8 }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', racerScript], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      let waiting: ((answer: Answer) => void) | undefined;
      const queue: Answer[] = [];
      child.on('message', (answer: Answer) => (waiting ? (waiting(answer), (waiting = undefined)) : queue.push(answer)));
      const next = (): Promise<Answer> => (queue.length > 0 ? Promise.resolve(queue.shift() as Answer) : new Promise((resolve) => (waiting = resolve)));
      return { child, next };
    });
    try {
      await Promise.all(racers.map((racer) => racer.next()));
      const dead = deadPid();
      const winners: number[] = [];
      for (let round = 0; round < 200; round++) {
        const dir = join(root, String(round));
        await mkdir(dir);
        await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), since: new Date(Date.UTC(2026, 0, 1) + round).toISOString() }));
        for (const racer of racers) racer.child.send({ type: 'race', round, dir });
        const answers = await Promise.all(racers.map((racer) => racer.next()));
        expect(answers.every((answer) => answer.round === round)).toBe(true);
        const won = answers.flatMap((answer, i) => (answer.got ? [i] : []));
        winners.push(won.length);
        expect(answers.filter((answer) => !answer.got).map((answer) => answer.code)).toEqual(Array.from({ length: 8 - won.length }, () => 'STORE_RUN_LOCKED'));
        const [winner] = won;
        if (winner === undefined) continue;
        expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: racers[winner]?.child.pid });
        racers[winner]?.child.send({ type: 'release', round });
        await racers[winner]?.next();
      }
      expect(winners.filter((count) => count !== 1)).toEqual([]);
    } finally {
      for (const racer of racers) if (racer.child.connected) racer.child.send({ type: 'exit' });
      for (const loop of busy) loop.kill('SIGKILL');
    }
  }, 180_000);
});

describe('RunStore and the lock', () => {
  test('a run being written cannot be opened by another process; once closed it can', async () => {
    const store = new RunStore(root);
    const handle = await store.create(manifest(ID));
    // Posing as another live process on this host: our parent.
    const other = new RunStore(root, undefined, { pid: process.ppid });
    await expect(other.open(ID)).rejects.toMatchObject({ code: 'STORE_RUN_LOCKED', message: expect.stringContaining(`process ${process.pid}`) });
    await handle.close();
    const reopened = await other.open(ID);
    expect(reopened.tookOverFrom).toBeUndefined();
    await expect(store.open(ID)).rejects.toMatchObject({ code: 'STORE_RUN_LOCKED', message: expect.stringContaining(`process ${process.ppid} on ${hostname()}`) });
    await reopened.handle.close();
    expect(await readdir(store.runDir(ID))).not.toContain(LOCK_FILE);
  });

  test('a failed open (corrupt results) leaves no lock behind', async () => {
    const store = new RunStore(root);
    await (await store.create(manifest(ID))).close();
    await mkdir(store.runDir(ID), { recursive: true });
    await writeFile(join(store.runDir(ID), 'results.jsonl'), 'not json\n{"index":0,"repeat":0}\n');
    await expect(store.open(ID)).rejects.toMatchObject({ code: 'STORE_CORRUPT_RESULTS' });
    expect(await readdir(store.runDir(ID))).not.toContain(LOCK_FILE);
  });

  test('process.exit() releases the lock (second Ctrl-C); kill -9 leaves it, and the next owner takes over', async () => {
    const module = pathToFileURL(join(REPO_ROOT, 'dist', 'store', 'run-lock.js')).href;
    const hold = (exit: string): string =>
      `const { RunLock } = await import(${JSON.stringify(module)}); RunLock.acquire(${JSON.stringify(root)}, 'x'); ${exit}`;
    spawnSync(process.execPath, ['--input-type=module', '-e', hold('process.exit(130);')]);
    expect(await readdir(root)).toEqual([]);
    spawnSync(process.execPath, ['--input-type=module', '-e', hold("process.kill(process.pid, 'SIGKILL');")]);
    expect(await readdir(root)).toEqual([LOCK_FILE]);
    const lock = RunLock.acquire(root, ID);
    expect(lock.tookOverFrom?.host).toBe(hostname());
    lock.release();
  });
});
