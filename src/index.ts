// The library: everything the CLI does is available without it.
export { loadProject, loadConfig, defineConfig } from './project/index.js';
export type { AgentmarkConfig, LoadedConfig, ModelPrice, HookContext, HookRow, SuiteHooks, Project, ProjectFile, ScoreSchema } from './project/index.js';
export type { UserFilter } from './prompt/index.js';
// What a config needs from the AI SDK, so a project installs one package: `ai` is our dependency,
// not the project's. Only the library loads it here; the CLI bundle never imports this file.
export { tool, jsonSchema, generateText, streamText, stepCountIs, Output } from 'ai';
export type { Tool, Schema, LanguageModel } from 'ai';
export type { AgentContext, AgentFunction, AgentOutput, AgentPrompt, AgentRenderedPrompt, AgentRow, AgentRowRecord, AgentCallRecord } from './agent/index.js';
export { loadPrompt, findPromptFiles } from './prompt/index.js';
export type { LoadedPrompt, RenderedPrompt, ChatMessage, TextConfig, ObjectConfig, TestSettings } from './prompt/index.js';
export { readDataset, resolveDatasetPath, selectRows } from './dataset/index.js';
export type { DatasetRow, RowSelection } from './dataset/types.js';
export { runExperiment } from './experiment/index.js';
export type {
  ExperimentOutcome,
  RunExperimentOptions,
  RunEvent,
  RunInfo,
  RunListener,
  RowResult,
  RunSummary,
  EvalSummary,
  GateResult,
  JudgeSpend,
} from './experiment/index.js';
export { builtinScorers, bindEvals, runEval, validateResult } from './scoring/index.js';
export type { EvalParams, EvalResult, Scorer, ScorerControl, ScoredEval } from './scoring/index.js';
export { executeModelRequest, createProviderRegistry, ResponseCache } from './model/index.js';
export type { ModelRequest, ModelResponse, ToolCallRecord, TokenUsage } from './model/index.js';
export { RunStore, openRunFolder } from './store/index.js';
export type { StoredRun, RunManifest } from './store/index.js';
export { resolveRunRef, listRuns, pruneRuns } from './history/index.js';
export type { RunRefContext, ListRunsOptions, PruneOptions } from './history/index.js';
export { compareRuns } from './compare/index.js';
export type * from './compare/types.js';
export type { CompareOptions, RunSource } from './compare/index.js';
export { mergeShards, parseShardSpec, shardOf } from './shard/index.js';
export { runCi, mergeCiReports, formatCiMarkdown } from './ci/index.js';
export type { CiOptions, CiReport, CiPromptResult, CiVerdict } from './ci/index.js';
export type { MergeShardsOptions, MergedRun, ShardSpec } from './shard/index.js';
export { reporters } from './report/index.js';
export * from './errors/index.js';
