/**
 * A duration in seconds, as `--timeout` and `--eval-timeout` are given: `60s`, `1.5s`, `0.25s`.
 * Shared so a model timeout and an eval timeout read the same in results.
 */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
