/**
 * What `@ai-sdk/provider-utils`' `withUserAgentSuffix` returns, without a web `Headers` object
 * for the headers most requests carry. The SDK calls it for every request it posts (postToApi):
 * it copies the headers into a `Headers` (undici: its first use loads undici, and every call
 * runs its web-IDL checks), appends to the user agent and copies them back out, ~8% of a fast
 * run's main-thread CPU per row. The CLI bundle swaps the SDK's function for this one
 * (rolldown.config.mjs); the library and the tests run the SDK's own.
 *
 * The result is the same object: names lower-cased and in sorted order (a `Headers` object's
 * entries are sorted), the same values. Headers whose names and values a `Headers` object would
 * pass through unchanged take the fast path; anything else (a value with surrounding spaces, a
 * control character, a name that is no HTTP token, a non-string value, a `Headers` or array
 * given in) goes through a real `Headers`, so its normalising and its errors stay the SDK's.
 * test/model/user-agent-suffix.test.ts compares the two.
 */
export function withUserAgentSuffix(headers: Headers | Array<[string, string]> | Record<string, string | undefined> | undefined, ...userAgentSuffixParts: string[]): Record<string, string> {
  const plain = plainRecord(headers);
  if (plain !== undefined) {
    const userAgent = [plain['user-agent'] || '', ...userAgentSuffixParts].filter(Boolean).join(' ');
    if (PLAIN_VALUE.test(userAgent)) {
      plain['user-agent'] = userAgent;
      const sorted: Record<string, string> = {};
      for (const name of Object.keys(plain).sort()) sorted[name] = plain[name] as string;
      return sorted;
    }
  }
  return viaHeaders(headers, userAgentSuffixParts);
}

/** An HTTP token (RFC 9110), lower case: what `Headers` keeps as it is. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/**
 * Printable Latin-1 with inner spaces and tabs and nothing around them: what `Headers` neither
 * trims nor refuses. (It also passes other control characters; those take the slow path.)
 */
const PLAIN_VALUE = /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/**
 * The headers as `normalizeHeaders` gives them (lower-cased names, unset values left out), or
 * undefined when one would not pass through a `Headers` unchanged. Only a plain object is read
 * here: `instanceof Headers` would load undici by itself.
 */
function plainRecord(headers: unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  if (typeof headers !== 'object' || Array.isArray(headers) || Symbol.iterator in headers) return undefined;
  const record = headers as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    const name = key.toLowerCase();
    if (typeof value !== 'string' || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return undefined;
    out[name] = value;
  }
  return out;
}

/** The SDK's own steps, for what the fast path does not take. */
function viaHeaders(headers: unknown, userAgentSuffixParts: string[]): Record<string, string> {
  const normalized: Record<string, string> = {};
  if (headers !== undefined && headers !== null) {
    if (headers instanceof Headers) headers.forEach((value, key) => (normalized[key.toLowerCase()] = value));
    else {
      const entries = Array.isArray(headers) ? (headers as Array<[string, unknown]>) : Object.entries(headers as Record<string, unknown>);
      for (const [key, value] of entries) if (value !== undefined && value !== null) normalized[key.toLowerCase()] = value as string;
    }
  }
  const real = new Headers(normalized);
  real.set('user-agent', [real.get('user-agent') || '', ...userAgentSuffixParts].filter(Boolean).join(' '));
  return Object.fromEntries(real.entries());
}
