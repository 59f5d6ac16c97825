import { networkInterfaces } from 'node:os';

/** Hosts that mean "this machine only". */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** `Host` header as `[name, port]`, with IPv6 brackets removed; undefined when malformed. */
export function parseHostHeader(header: string | undefined): [string, string] | undefined {
  if (header === undefined) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!match || match[1] === undefined) return undefined;
  const name = match[1].startsWith('[') ? match[1].slice(1, -1) : match[1];
  return [name.toLowerCase(), match[2] ?? '80'];
}

/**
 * The names a request may give in `Host`. A page on another site that points its own name at
 * 127.0.0.1 (DNS rebinding) sends its own name here, so anything but the bound address is
 * refused. Bound to loopback, the usual spellings of loopback are allowed; bound to every
 * interface, the machine's own addresses are.
 */
export function allowedHostNames(boundHost: string): Set<string> {
  const host = boundHost.toLowerCase();
  if (isLoopback(host)) return new Set([...LOOPBACK_NAMES, host]);
  if (!isWildcard(host)) return new Set([host]);
  const names = new Set(LOOPBACK_NAMES);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) names.add(address.address.toLowerCase());
  }
  return names;
}

export function hostAllowed(header: string | undefined, allowed: ReadonlySet<string>, port: number): boolean {
  const parsed = parseHostHeader(header);
  if (!parsed) return false;
  const [name, givenPort] = parsed;
  if (givenPort !== String(port)) return false;
  return allowed.has(name);
}

/**
 * The app's pages load their script and style from this server only; nothing inline, nothing
 * from elsewhere, and the page cannot be framed.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every response. */
export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};
