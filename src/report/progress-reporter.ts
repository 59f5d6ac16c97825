import type { RowResult } from '../experiment/types.js';
import { formatDuration } from './format-duration.js';
import { formatPercent } from './format-percent.js';
import { fitProgressLine, type ProgressPart } from './progress-line.js';
import type { OutputStream, Reporter } from './types.js';

export interface ProgressStream extends OutputStream {
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Milliseconds clock. @default Date.now */
  now?: () => number;
  /** @default out.isTTY */
  isTTY?: boolean;
  /** Minimum time between redraws on a terminal. @default 100 */
  redrawMs?: number;
  /** Time between plain lines when not a terminal (also printed at every 10%). @default 10000 */
  intervalMs?: number;
  /** Least time between plain lines, so a fast run's 10% steps don't each print a line. @default 250 */
  minLineMs?: number;
}

export interface ProgressReporter extends Reporter {
  /** Erases the progress line, so whatever prints next starts on a clean line. */
  clear(): void;
  /** What paces the run now (`100 req/s by the provider`), shown on the line; undefined when nothing does. */
  paced(text: string | undefined): void;
}

const CLEAR_LINE = '\r\x1b[2K';
/** Width a plain (piped) progress line is fitted to. */
const PIPED_WIDTH = 80;

/**
 * Live progress. On a terminal: one line redrawn in place, at most ~10 times a second, so a
 * fast run does not spend its time repainting. Elsewhere (CI logs): a plain line every
 * `intervalMs` or every 10%, so logs show progress without thousands of lines.
 */
/** Rows and seconds a rate is measured over before it predicts an ETA. */
const ETA_MIN_ROWS = 3;
const ETA_MIN_SECONDS = 1;

export function createProgressReporter(out: ProgressStream, options: ProgressOptions = {}): ProgressReporter {
  const now = options.now ?? Date.now;
  const tty = options.isTTY ?? out.isTTY === true;
  const redrawMs = options.redrawMs ?? 100;
  const intervalMs = options.intervalMs ?? 10_000;
  const minLineMs = options.minLineMs ?? 250;
  let total: number | undefined;
  let start = now();
  let done = 0;
  let errored = 0;
  let verdicts = 0;
  let passes = 0;
  const byEval = new Map<string, { verdicts: number; errors: number }>();
  let rowsWithoutEvals = 0;
  let lastDraw = -Infinity;
  let lastDecile = 0;
  let drawn = false;
  /** Off a terminal: the count on the last plain line printed, if any. */
  let printed: number | undefined;
  let pacedBy: string | undefined;

  const line = (at: number, width: number, final = false): string => {
    // Left out first on a narrow line (drop 1 first), so the pace at its end is never cut.
    const parts: ProgressPart[] = [{ text: total === undefined ? `${done} rows` : `${done}/${total} rows` }];
    if (total !== undefined) {
      parts.push({ text: ` (${formatPercent(done / Math.max(total, 1), 0)})`, drop: 2, attached: true });
    }
    if (verdicts > 0) parts.push({ text: `pass ${formatPercent(passes / verdicts)}`, drop: 4 });
    if (errored > 0) parts.push({ text: `${errored} errored`, drop: 5 });
    const elapsed = (at - start) / 1000;
    if (elapsed > 0) {
      const rate = done / elapsed;
      parts.push({ text: `${rate.toFixed(1)} rows/s`, drop: 1 });
      // No ETA from a rate not yet measured: the first rows end together as the pool fills (one
      // row in 1 s of a 900-row run said 15m for an 8 s run).
      const measured = done >= ETA_MIN_ROWS && elapsed >= ETA_MIN_SECONDS;
      if (!final && measured && total !== undefined && rate > 0 && done < total) parts.push({ text: `ETA ${formatDuration(((total - done) / rate) * 1000)}`, drop: 3 });
    }
    if (pacedBy !== undefined && !final) parts.push({ text: `paced: ${pacedBy}` });
    return fitProgressLine(parts, width);
  };

  const draw = (at: number, final = false): void => {
    lastDraw = at;
    if (tty) {
      const width = out.columns;
      out.write(CLEAR_LINE + line(at, width !== undefined && width > 1 ? width - 1 : Number.POSITIVE_INFINITY, final));
      drawn = true;
    } else {
      // Logs are read at 80 columns too.
      out.write(`${line(at, PIPED_WIDTH, final)}\n`);
      printed = done;
    }
  };

  const clear = (): void => {
    if (tty && drawn) out.write(CLEAR_LINE);
    drawn = false;
  };

  return {
    onRunStart(info) {
      total = info.total;
      start = now();
      // Off a terminal the first line waits a full interval (or 10%), not the first row.
      lastDraw = start;
      if (tty) draw(start);
    },
    onRowEnd(row: RowResult) {
      done += 1;
      if (row.error !== undefined) errored += 1;
      // As in the summary: an errored result of an eval that gives verdicts did not pass, and
      // neither did a row that failed before its evals ran, once for each such eval.
      if (row.error !== undefined && Object.values(row.evals).every((e) => e.absent)) rowsWithoutEvals += 1;
      for (const [name, result] of Object.entries(row.evals)) {
        let tally = byEval.get(name);
        if (!tally) byEval.set(name, (tally = { verdicts: 0, errors: 0 }));
        if (result.error !== undefined) tally.errors += 1;
        if (result.passed === undefined) continue;
        tally.verdicts += 1;
        if (result.passed) passes += 1;
      }
      verdicts = 0;
      for (const tally of byEval.values()) if (tally.verdicts > 0) verdicts += tally.verdicts + tally.errors + rowsWithoutEvals;
      const at = now();
      const finished = total !== undefined && done >= total;
      if (tty) {
        if (finished || at - lastDraw >= redrawMs) draw(at);
        return;
      }
      const decile = total === undefined || total === 0 ? 0 : Math.floor((done * 10) / total);
      if ((decile > lastDecile && at - lastDraw >= minLineMs) || at - lastDraw >= intervalMs) {
        lastDecile = decile;
        draw(at);
      }
    },
    onRunEnd() {
      // Off a terminal a line cannot be erased: once progress was shown, the last line is the
      // final count (a fast run's last rows fall inside the throttle), with no ETA left standing.
      if (!tty && printed !== undefined && printed !== done) draw(now(), true);
      clear();
    },
    clear,
    paced(text) {
      pacedBy = text;
    },
  };
}

