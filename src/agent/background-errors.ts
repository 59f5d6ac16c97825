/**
 * Errors that reach the process from nowhere in particular: a promise agent code rejected and
 * nobody awaited, a throw inside one of its timers. Node would end the process on them (exit 1,
 * rows in flight lost, the manifest left `running`). The CLI hands them here instead, and the
 * agent rows in flight take them as their error: the code that threw is theirs, or one of theirs.
 */
export type BackgroundKind = 'rejection' | 'exception';

type Claim = (error: unknown, kind: BackgroundKind) => void;

const inFlight = new Set<Claim>();

/** Registers an agent row in flight; the returned function takes it off. */
export function watchBackgroundErrors(claim: Claim): () => void {
  inFlight.add(claim);
  return () => inFlight.delete(claim);
}

/** Gives `error` to every agent row in flight; false when none is (the caller must report it). */
export function claimBackgroundError(error: unknown, kind: BackgroundKind): boolean {
  if (inFlight.size === 0) return false;
  for (const claim of [...inFlight]) claim(error, kind);
  return true;
}
