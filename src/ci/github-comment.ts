import { readFile } from 'node:fs/promises';
import { COMMENT_MARKER } from './format-ci-markdown.js';

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** What `--comment` did: the comment's id and whether it was made now or edited. */
export type CommentOutcome = { done: 'created' | 'updated'; id: number } | { warning: string };

/**
 * Creates or updates the one pull-request comment whose body holds COMMENT_MARKER, through the
 * GitHub REST API at `$GITHUB_API_URL` (default https://api.github.com) with `$GITHUB_TOKEN`;
 * the repository from `$GITHUB_REPOSITORY`, the PR number from the event file at
 * `$GITHUB_EVENT_PATH`. Never throws: anything missing or refused is a warning (the verdict is
 * the exit code's, not the comment's), and no message carries the token.
 */
export async function postComment(body: string, env: NodeJS.ProcessEnv, fetchImpl: FetchLike = fetch as unknown as FetchLike): Promise<CommentOutcome> {
  const token = env.GITHUB_TOKEN;
  const repository = env.GITHUB_REPOSITORY;
  if (!token) return { warning: '--comment: GITHUB_TOKEN is not set, so no comment was posted (in a workflow: env: GITHUB_TOKEN: ${{ github.token }})' };
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository)) return { warning: '--comment: GITHUB_REPOSITORY is not set to owner/name, so no comment was posted' };
  const number = await pullRequestNumber(env.GITHUB_EVENT_PATH);
  if (number === undefined) return { warning: '--comment: no pull request number in $GITHUB_EVENT_PATH (not a pull_request event?), so no comment was posted' };
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const headers = { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'x-github-api-version': '2022-11-28', 'user-agent': 'agentmark-ci', 'content-type': 'application/json' };
  const call = async (method: string, path: string, payload?: unknown): Promise<{ ok: boolean; status: number; data: unknown }> => {
    const response = await fetchImpl(`${api}${path}`, { method, headers, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
    return { ok: response.ok, status: response.status, data: response.ok ? await response.json().catch(() => undefined) : undefined };
  };
  const issue = `/repos/${repository}/issues/${number}`;
  try {
    let existing: number | undefined;
    // A long thread spans pages; the marker finds our comment among any others.
    for (let page = 1; existing === undefined; page++) {
      const listed = await call('GET', `${issue}/comments?per_page=100&page=${page}`);
      if (!listed.ok) return { warning: `--comment: listing the comments of ${repository}#${number} failed (HTTP ${listed.status}); no comment was posted` };
      const comments = Array.isArray(listed.data) ? (listed.data as Array<{ id?: unknown; body?: unknown }>) : [];
      existing = comments.find((c) => typeof c.body === 'string' && c.body.includes(COMMENT_MARKER) && typeof c.id === 'number')?.id as number | undefined;
      if (comments.length < 100) break;
    }
    const sent = existing === undefined ? await call('POST', `${issue}/comments`, { body }) : await call('PATCH', `/repos/${repository}/issues/comments/${existing}`, { body });
    if (!sent.ok) return { warning: `--comment: ${existing === undefined ? 'creating' : 'updating'} the comment on ${repository}#${number} failed (HTTP ${sent.status})` };
    const id = (sent.data as { id?: unknown } | undefined)?.id;
    return { done: existing === undefined ? 'created' : 'updated', id: typeof id === 'number' ? id : (existing ?? 0) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split(token).join('***') : 'unknown error';
    return { warning: `--comment: the GitHub API at ${api} could not be reached (${reason})` };
  }
}

/** `pull_request.number` (pull_request events), else `issue.number` or `number`. */
async function pullRequestNumber(eventPath: string | undefined): Promise<number | undefined> {
  if (!eventPath) return undefined;
  try {
    const event = JSON.parse(await readFile(eventPath, 'utf8')) as { pull_request?: { number?: unknown }; issue?: { number?: unknown }; number?: unknown };
    const number = event.pull_request?.number ?? event.issue?.number ?? event.number;
    return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
  } catch {
    return undefined;
  }
}
