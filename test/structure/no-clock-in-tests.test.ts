import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/temp-project.js';

/**
 * The rule (CONTRIBUTING.md, Tests): no wall-clock bounds and no sleeps for synchronisation in
 * tests. A test waits for the event itself (a request at the loopback server, a line of output,
 * a file written) and timings go in the bench. Reading the clock is how an elapsed-time
 * assertion starts, and a fixed sleep is how a test guesses that something has happened; both
 * are flagged here, wherever in test/ they appear.
 */
const CLOCK = /\bDate\.now\(\)|\bperformance\.now\(\)|\bprocess\.hrtime\b/g;
/**
 * A promise that resolves after a fixed time, a helper that makes one, or a blocking wait. A
 * sleep on the same line as a `while (` / `for (` header is the interval of a poll (the loop
 * waits for its condition, the event), not a guess, and is not flagged.
 */
const SLEEP = /setTimeout\(\s*(?:resolve|res|r|done|next)\s*,|\bawait\s+(?:delay|sleep)\(|Atomics\.wait\(/g;
const POLL = /^\s*(?:while|for)\s*\(/;

/** What a file may keep, and why: each entry is the exact count, so a new one still fails. */
interface Allowed {
  clock?: number;
  sleep?: number;
  reason: string;
}

const ALLOWED: Record<string, Allowed> = {
  'test/helpers/openai-server.ts': {
    clock: 2,
    sleep: 2,
    reason: 'the fake server: it stamps when a request arrived and was hung up on (for floors), and a scripted reply\'s latencyMs is the model\'s latency, not a wait of the test',
  },
  'test/watch/watch-process.ts': {
    clock: 2,
    sleep: 1,
    reason: '`until` polls a condition every 20 ms; the deadline only turns a hang into a failure naming what never happened',
  },
  'test/serve/serve-store-changes.test.ts': {
    sleep: 1,
    reason: '`until` asks serve\'s API again every 100 ms for a change another process made in the store, which serve sees at its next look (once a second); no deadline, nothing timed',
  },
  'test/watch/change-batcher.test.ts': {
    clock: 1,
    reason: 'fake timers: it moves the faked clock past a deadline to stage a stalled process',
  },
  'test/model/retries.test.ts': {
    clock: 2,
    reason: 'a floor: the call waited out Retry-After 1 s; load can only lengthen it',
  },
  'test/cli/model-calls.test.ts': {
    clock: 1,
    reason: 'a floor: the retry came at least Retry-After (400 ms) after the 429; load can only lengthen it',
  },
  'test/cli/interrupt.test.ts': {
    clock: 2,
    reason: 'a floor: one Ctrl-C waits the 3 s grace period before aborting the calls; timers never fire early',
  },
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : files(path);
    return /\.(?:ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Clock reads and sleeps of one file's text, with the lines they are on. */
export function findTimers(text: string): { clock: string[]; sleep: string[] } {
  const found = { clock: [] as string[], sleep: [] as string[] };
  text.split('\n').forEach((line, i) => {
    // A comment may name the rule; only code counts.
    const code = line.replace(/\/\*.*?\*\/|(?:^|\s)\/\/.*$/g, '').replace(/^\s*\/?\*.*$/, '');
    for (const _ of code.matchAll(CLOCK)) found.clock.push(`${i + 1}: ${line.trim()}`);
    if (POLL.test(code)) return;
    for (const _ of code.matchAll(SLEEP)) found.sleep.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

describe('tests wait for events, not for the clock', () => {
  it('finds a clock read, a sleep and a blocking wait, and lets a poll interval be', () => {
    const found = findTimers(
      [
        'const started = Date.now();',
        'expect(performance.now() - started).toBeLessThan(2000);',
        'await new Promise((resolve) => setTimeout(resolve, 500));',
        'await delay(800);',
        'Atomics.wait(pause, 0, 0, 8);',
        'while (!done()) await new Promise((r) => setTimeout(r, 20));',
        '// Date.now() in a comment',
        '/** or `performance.now()` in a doc comment */',
        'const timer = setTimeout(() => child.kill(), 15_000);',
      ].join('\n'),
    );
    expect(found.clock.map((line) => line.split(':')[0])).toEqual(['1', '2']);
    expect(found.sleep.map((line) => line.split(':')[0])).toEqual(['3', '4', '5']);
  });

  it('no file under test/ reads the clock or sleeps, but the few allowed with a reason', () => {
    const self = relative(REPO_ROOT, import.meta.filename);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const path of files(join(REPO_ROOT, 'test'))) {
      const file = relative(REPO_ROOT, path);
      if (file === self) continue;
      const found = findTimers(readFileSync(path, 'utf8'));
      if (found.clock.length + found.sleep.length === 0) continue;
      seen.add(file);
      const allowed = ALLOWED[file];
      if (found.clock.length !== (allowed?.clock ?? 0)) problems.push(`${file}: ${found.clock.length} clock reads (allowed ${allowed?.clock ?? 0}):\n  ${found.clock.join('\n  ')}`);
      if (found.sleep.length !== (allowed?.sleep ?? 0)) problems.push(`${file}: ${found.sleep.length} sleeps (allowed ${allowed?.sleep ?? 0}):\n  ${found.sleep.join('\n  ')}`);
    }
    // An entry whose file no longer needs it goes, so the list stays short and true.
    for (const file of Object.keys(ALLOWED)) if (!seen.has(file)) problems.push(`${file}: allowed, but reads no clock and sleeps no more: remove its entry`);
    expect(problems, 'wait for the event (a request at the server, a line of output, a file written); put timings in bench/').toEqual([]);
  });
});
