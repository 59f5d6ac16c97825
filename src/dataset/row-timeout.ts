/**
 * A row's own `timeout_seconds` (per model call of that row), or a problem for a DatasetError
 * naming the line: a timeout that is not a positive number would otherwise be ignored silently.
 */
export function readRowTimeout(metadata: Record<string, unknown>): { seconds?: number } | { problem: string } {
  const value = metadata.timeout_seconds;
  if (value === undefined) return {};
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return { problem: `"timeout_seconds" must be a positive number of seconds (got ${JSON.stringify(value)})` };
  }
  return { seconds: value };
}
