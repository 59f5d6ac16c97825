/** A value as a span attribute's JSON text (`undefined`, which JSON cannot hold, as `null`). */
export function json(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
