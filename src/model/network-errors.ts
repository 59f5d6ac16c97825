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

/**
 * Codes that mean no server could be reached at all: nothing listens (refused), the name does
 * not resolve, no route, or no TLS session could be set up. A live server that is slow, resets a
 * connection or answers 429/5xx is reachable, and none of these.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPROTO']);
/** OpenSSL's certificate and handshake failures, as Node reports them. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_(GET|VERIFY)_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

/** A failed attempt that shows the server could not be reached: the low-level error and the request's URL when known. */
export interface UnreachableFailure {
  error: Error;
  url: string | undefined;
}

/**
 * The connection-level failure in `error`'s cause chain that means the server is unreachable, or
 * undefined. Happy-eyeballs connects wrap one error per address in an AggregateError, which
 * carries the code too.
 */
export function findUnreachableFailure(error: unknown): UnreachableFailure | undefined {
  const seen = new Set<unknown>();
  let url: string | undefined;
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const { code, url: currentUrl } = current as Error & { code?: unknown; url?: unknown };
    if (url === undefined && typeof currentUrl === 'string') url = currentUrl;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || TLS_CODE.test(code))) return { error: current, url };
    current = current.cause ?? (current instanceof AggregateError ? current.errors[0] : undefined);
  }
  return undefined;
}

/** The base URL a request went to: its URL without the API endpoint (`…/v1/chat/completions` → `…/v1`). */
export function baseUrlOf(url: string): string {
  return url.replace(/[?#].*$/, '').replace(/\/(chat\/completions|completions|responses|embeddings|messages)$/, '');
}

/** Told how each HTTP attempt went, so a caller can notice a server that went away (see the runner's circuit breaker). */
export interface ConnectionHealth {
  /** The server answered, whatever the status (429 and 5xx included). */
  reached(): void;
  /** The attempt could not reach the server. */
  unreachable(failure: UnreachableFailure): void;
}
