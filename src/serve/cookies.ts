/** The session cookie's name; `__Host-` under TLS (only then may browsers accept that prefix). */
export function sessionCookieName(tls: boolean): string {
  return tls ? '__Host-agentmark-session' : 'agentmark-session';
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure under TLS. */
export function sessionCookie(name: string, value: string, tls: boolean): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${tls ? '; Secure' : ''}`;
}

export function clearedCookie(name: string, tls: boolean): string {
  return `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${tls ? '; Secure' : ''}`;
}
