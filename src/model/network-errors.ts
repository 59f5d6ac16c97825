/** Socket-level failure codes from Node and undici: the request never got a whole answer. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The first error in the cause chain that shows the connection failed (refused, reset, dropped
 * mid-response), or undefined. The chain is walked because the AI SDK wraps fetch's TypeError,
 * which wraps undici's socket error.
 */
export function findConnectionFailure(error: unknown): Error | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return current;
    if (current instanceof TypeError && /^(fetch failed|failed to fetch|terminated)$/i.test(current.message)) {
      return current.cause instanceof Error ? current.cause : current;
    }
    current = current.cause;
  }
  return undefined;
}
