import { randomInt } from 'node:crypto';

export interface RunIdDeps {
  /** Milliseconds clock, like Date.now. @default Date.now */
  now?: () => number;
  /** A number in [0, 1), like Math.random. @default crypto-random */
  random?: () => number;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * `20261130-031500.123-ab12cd`: UTC time to the millisecond first, so ids sort in start order
 * (and `ls` shows them in order) even for runs started within one second, then 6 random hex
 * digits so two runs started in the same millisecond do not collide.
 */
export function createRunId(deps: RunIdDeps = {}): string {
  const now = new Date((deps.now ?? Date.now)());
  const random = deps.random ?? (() => randomInt(0x1000000) / 0x1000000);
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const suffix = Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')
    .slice(-6);
  return `${date}-${time}.${pad(now.getUTCMilliseconds(), 3)}-${suffix}`;
}

/** Ids become folder names: anything that could escape the runs folder is not an id. */
export function isValidRunId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes('..');
}
