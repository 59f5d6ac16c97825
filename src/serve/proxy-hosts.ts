import { parseHostHeader } from '../view/security.js';

/**
 * The names `--allow-host` accepts in the Host header (a reverse proxy's public names), at any
 * port: a proxy passes the name browsers used (nginx's `proxy_set_header Host $host` sends it
 * without a port, so 443 or 80 to the server), never the server's own port. Rebinding is still
 * refused: a page elsewhere sends its own name, which is not among these.
 */
export function proxyHostAllowed(header: string | undefined, names: ReadonlySet<string>): boolean {
  const parsed = parseHostHeader(header);
  return parsed !== undefined && names.has(parsed[0]);
}
