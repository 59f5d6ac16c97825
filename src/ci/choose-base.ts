import { commitOf, mergeBase } from './git.js';

/** The commit `ci` compares with, and how it was found. */
export interface ChosenBase {
  /** The ref that resolved (`main`, `origin/main`, as given to --base). */
  ref: string;
  /** The merge base of that ref and HEAD (the ref's own commit when they share no history). */
  commit: string;
  /** Every ref tried, in order, the resolved one last. */
  tried: string[];
}

/** No ref resolved: what was tried, for the error (or the `no base` note). */
export interface MissingBase {
  ref?: undefined;
  tried: string[];
}

/**
 * `--base <ref>` when given; else `$GITHUB_BASE_REF` (as `origin/<ref>`, then as written) when
 * set; else `origin/main`, then `main`. The base is the merge base of that ref and HEAD: what a
 * pull request's diff is taken against, so commits on main since the branch left it are not
 * counted as the branch's changes.
 */
export async function chooseBase(cwd: string, given: string | undefined, env: NodeJS.ProcessEnv): Promise<ChosenBase | MissingBase> {
  const candidates = given !== undefined ? [given] : env.GITHUB_BASE_REF ? [`origin/${env.GITHUB_BASE_REF}`, env.GITHUB_BASE_REF] : ['origin/main', 'main'];
  const tried: string[] = [];
  for (const ref of candidates) {
    tried.push(ref);
    const commit = await commitOf(cwd, ref);
    if (commit === undefined) continue;
    const head = await commitOf(cwd, 'HEAD');
    const base = head === undefined ? undefined : await mergeBase(cwd, head, commit);
    return { ref, commit: base ?? commit, tried };
  }
  return { tried };
}
