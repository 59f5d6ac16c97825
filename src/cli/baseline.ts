import { compareRuns, type CompareResult } from '../compare/index.js';
import { runRefStore } from './open-store.js';
import { isAgentmarkError, type AgentmarkError } from '../errors/index.js';
import { gateFails } from './gate-fails.js';
import type { RunListener } from '../experiment/events.js';
import { resolveRunRef } from '../history/index.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import { openRunFolder, type StoredRun } from '../store/index.js';
import { projectPath } from './project-path.js';

export interface BaselineFlags {
  /** `--baseline <run>`. */
  baseline?: string;
  /** `--baseline-commit <git-ref>`: `@<ref>` plus AgentMark's per-row regression_tolerance check. */
  baselineCommit?: string;
  alpha: number;
  maxDrop?: number;
  /** `--fail-on-inconclusive`. */
  failOnInconclusive: boolean;
}

export interface Baseline {
  run: StoredRun;
  tolerance?: number;
  alpha: number;
  maxDrop?: number;
  failOnInconclusive: boolean;
}

/**
 * Finds the baseline run of one prompt before it runs, so an unknown reference is an input
 * error (exit 2) before any model call. `latest` is the prompt's newest finished run so far.
 */
export async function findBaseline(flags: BaselineFlags, project: Project, io: { cwd: string; env: NodeJS.ProcessEnv; stderr: { write(text: string): unknown } }, prompt: LoadedPrompt): Promise<Baseline | undefined> {
  const ref = flags.baselineCommit === undefined ? flags.baseline : `@${flags.baselineCommit}`;
  if (ref === undefined) return undefined;
  const run = await resolveRunRef(ref, { projectRoot: project.root, cwd: io.cwd, ...runRefStore(project, io), prompt: projectPath(project, project.root, prompt.path) });
  return {
    run,
    alpha: flags.alpha,
    failOnInconclusive: flags.failOnInconclusive,
    ...(flags.maxDrop === undefined ? {} : { maxDrop: flags.maxDrop }),
    // AgentMark's own form: with no tolerance set, any drop of a row's score is a regression.
    ...(flags.baselineCommit === undefined ? {} : { tolerance: prompt.testSettings.regression_tolerance ?? 0 }),
  };
}

/**
 * Compares the finished run with the baseline at run-end, before the reports are written, so
 * the table prints the comparison after the summary and json carries it as `comparison`.
 * A comparison that cannot be made (no row in common: `USAGE_NO_PAIRED_ROWS`) goes to
 * `onError` and the reports are written without it; the caller exits 2 with its message.
 */
export function compareAtRunEnd(listener: RunListener, baseline: Baseline, onResult: (result: CompareResult) => void, onError: (error: AgentmarkError) => void): RunListener {
  return async (event) => {
    if (event.type !== 'run-end') return listener(event);
    const head = await openRunFolder(event.info.runDir);
    let comparison: CompareResult;
    try {
      comparison = await compareRuns(baseline.run, head, {
        alpha: baseline.alpha,
        failOnRegression: true,
        ...(baseline.maxDrop === undefined ? {} : { maxDrop: baseline.maxDrop }),
        ...(baseline.tolerance === undefined ? {} : { tolerance: baseline.tolerance }),
      });
    } catch (error) {
      if (!isAgentmarkError(error) || error.code !== 'USAGE_NO_PAIRED_ROWS') throw error;
      onError(error);
      return listener(event);
    }
    onResult(comparison);
    return listener({ ...event, info: { ...event.info, comparison } });
  };
}

/** Whether the comparison fails the run: the three-way gate, or AgentMark's tolerance check. */
export function baselineFailed(result: CompareResult, failOnInconclusive: boolean): boolean {
  return gateFails(result, failOnInconclusive) || (result.tolerance?.failed ?? false);
}
