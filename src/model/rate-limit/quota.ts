/**
 * A 429 that no wait cures: OpenAI's `insufficient_quota` (the account is out of credit),
 * which comes as a 429 like a rate limit, but with no reset coming. Read from the error's body as
 * the AI SDK keeps it (`responseBody`, or its parsed `data`).
 */
export function isQuotaExceeded(error: { responseBody?: unknown; data?: unknown }): boolean {
  const body = typeof error.responseBody === 'string' ? error.responseBody : '';
  if (body.includes('insufficient_quota')) return true;
  const data = error.data as { error?: { code?: unknown; type?: unknown } } | undefined;
  return data?.error?.code === 'insufficient_quota' || data?.error?.type === 'insufficient_quota';
}
