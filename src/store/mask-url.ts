/**
 * A database URL as it may be printed: its password replaced by `***` (the user, host, port and
 * database stay, so an error still says where it tried). Text that is not a URL is masked between
 * `//user:` and `@` all the same.
 */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/(\/\/[^/:@]*:)[^@]*@/, '$1***@');
  }
}
