/** What the package's bin (scripts/bin-shim.cjs) saw while the CLI was loading. */
interface EarlyStops {
  /** The first stop signal that came before the CLI's own handlers. */
  signal: NodeJS.Signals | undefined;
  /** Takes the bin's handlers off. */
  release: () => void;
}

const KEY = Symbol.for('agentmark.early-stops');

/**
 * Hands over from the bin's handlers to the CLI's: call once the CLI's own are installed. Gives
 * the stop signal that came while the CLI was loading, if one did (nothing when the CLI was
 * started without the bin, e.g. from `dist/cli/bin.js`).
 */
export function takeEarlyStop(): NodeJS.Signals | undefined {
  const state = (globalThis as { [KEY]?: EarlyStops })[KEY];
  if (state === undefined) return undefined;
  state.release();
  return state.signal;
}
