export { importPromptfoo, type PromptfooSources } from './promptfoo/import-promptfoo.js';
export { importOpenAIEvals, type OpenAIEvalsSources } from './openai-evals/import-openai-evals.js';
export { importExitCode, importSummary } from './report.js';
export { writeImportedFiles } from './write-files.js';
export type { ImportIssue, ImportedItem, ImportResult, SourceRef } from './types.js';
