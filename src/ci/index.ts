export { runCi, type CiOptions } from './run-ci.js';
export type { CiEvalSide, CiPromptResult, CiReport, CiRunSide, CiVerdict } from './types.js';
export { formatCiMarkdown, COMMENT_LIMIT, COMMENT_MARKER } from './format-ci-markdown.js';
export { formatCiTable } from './format-ci-table.js';
export { postComment, type CommentOutcome, type FetchLike } from './github-comment.js';
export { mergeCiReports, type MergeCiOptions } from './merge-reports.js';
