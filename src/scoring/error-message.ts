/** What an eval error says about a thrown value; shared by this thread and the scorer workers. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : `non-error thrown: ${JSON.stringify(error) ?? String(error)}`;
}
