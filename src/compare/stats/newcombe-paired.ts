import { Z95, wilsonInterval } from '../../scoring/statistics.js';

/**
 * A paired 2×2 table of verdicts: `both` passed in base and head, `baseOnly` passed in base
 * only (a regression), `headOnly` passed in head only (an improvement), `neither`.
 */
export interface PairedTable {
  both: number;
  baseOnly: number;
  headOnly: number;
  neither: number;
}

/**
 * 95% interval (another level with `z`) for the paired difference of pass rates, head − base: Newcombe's method 10
 * (Statistics in Medicine 17:2635–2650, 1998), which combines the Wilson score intervals of
 * the two pass rates and the correlation φ between the paired verdicts (its numerator reduced
 * by n/2 when positive, as in Newcombe's worked examples). Unlike the Wald
 * interval it stays inside [−1, 1] and is not zero-width when nothing changed.
 * Undefined when there are no pairs.
 */
export function newcombePairedInterval(table: PairedTable, z = Z95): [number, number] | undefined {
  const { both, baseOnly, headOnly, neither } = table;
  const n = both + baseOnly + headOnly + neither;
  if (n === 0) return undefined;
  const headPassed = both + headOnly;
  const basePassed = both + baseOnly;
  const p1 = headPassed / n;
  const p2 = basePassed / n;
  const [l1, u1] = wilsonInterval(headPassed, n, z) as [number, number];
  const [l2, u2] = wilsonInterval(basePassed, n, z) as [number, number];
  // φ between the paired verdicts; 0 when a margin is empty. A positive numerator is reduced
  // by n/2 (not below 0), as Newcombe specifies: with no discordant pairs φ would be 1 and the
  // interval would collapse to a point, claiming a certainty the data do not have.
  const margins = (both + headOnly) * (baseOnly + neither) * (both + baseOnly) * (headOnly + neither);
  const cross = both * neither - headOnly * baseOnly;
  const numerator = cross > 0 ? Math.max(0, cross - n / 2) : cross;
  const phi = margins === 0 ? 0 : numerator / Math.sqrt(margins);
  const difference = p1 - p2;
  const lower = difference - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const upper = difference + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return [Math.max(-1, lower), Math.min(1, upper)];
}
