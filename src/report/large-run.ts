/**
 * Above this many rows (a side-by-side set: rows of all its runs together), a table lists the
 * rows that failed or errored only, the first LARGE_RUN of them; `--all-rows` or `-o` shows all.
 */
export const LARGE_RUN = 50;
