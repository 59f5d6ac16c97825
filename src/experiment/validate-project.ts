import { relative } from 'node:path';
import { MissingProps } from './missing-props.js';
import { locateRowField, readDataset, resolveDatasetPath } from '../dataset/index.js';
import { AgentmarkError, isAgentmarkError, PromptSyntaxError } from '../errors/index.js';
import { checkTools } from '../model/index.js';
import { resolveAgent } from '../agent/index.js';
import { loadConfig, type LoadedConfig } from '../project/index.js';
import type { Project, ScoreSchema } from '../project/types.js';
import { loadPrompt, unknownKeysOfFile, type LoadedPrompt, type PromptWarning } from '../prompt/index.js';
import { bindEvals, type BindContext, type BoundEval } from '../scoring/index.js';
import { RowEvalCollector } from './row-eval-binder.js';
import { promptBindContext } from './prompt-bind-context.js';
import { bothChecks, labelError, labelProblemOf, type RowCheck } from './check-verdicts.js';
import { checkedConversationSettings, turnAndRowEvalErrors } from './conversation-setup.js';
import { conversationRowCheck, type ConversationSettings } from '../conversation/index.js';

export interface ValidationReport {
  errors: AgentmarkError[];
  warnings: string[];
  prompts: number;
  datasets: number;
  rows: number;
}

/** What `validate` finds in one prompt; the dataset it names is checked apart (checkDataset). */
export interface PromptCheck {
  errors: AgentmarkError[];
  warnings: string[];
  /** Undefined when the prompt did not load. */
  prompt?: LoadedPrompt;
  /** The prompt's dataset, resolved, when it names one that resolves. */
  dataset?: { path: string; inputSchema: object | undefined; conversation?: ConversationRows; labels?: RowLabelNames };
  /** How the prompt's evals were bound (when the config loaded): the rows' own evals bind the same way. */
  binding?: RowEvalBinding;
}

/** What a dataset's row evals are bound against: the prompt's bound evals and its bind context. */
export interface RowEvalBinding {
  context: BindContext;
  evals: BoundEval[];
}

/** A prompt's conversation settings, which its rows' `scenario` and `messages` are checked against (as a run checks them). */
export interface ConversationRows {
  /** The dataset as shown in errors (relative to the project root). */
  file: string;
  settings: ConversationSettings | undefined;
}

/** What a row's `labels` are checked against, as a run checks them: the score schemas, and the other names a label may take. */
export interface RowLabelNames {
  /** The prompt's evals and the config's scorers: a calibration set shared by prompts may name the others'. */
  evalNames: string[];
  scores: Readonly<Record<string, ScoreSchema>>;
}

/** What checkDataset looks at besides the rows themselves. */
export interface DatasetCheckOptions {
  /** Gathers the rows' keys for the props no row has. */
  missing?: MissingProps;
  /** Binds the evals rows add, as a run binds them: an unknown name or bad option is an error at its row. */
  rowEvals?: RowEvalBinding & { file: string };
  /** Checks each row's conversation keys; left out when the prompt's conversation settings did not load. */
  conversation?: ConversationRows;
  /** Checks each row's `labels` against the score schemas; `file` is the dataset as errors name it. */
  labels?: RowLabelNames & { file: string };
}

/** What `validate` finds in one dataset read against one prompt's input_schema. */
export interface DatasetCheck {
  errors: AgentmarkError[];
  rows: number;
}

/**
 * Everything `validate` checks, gathering every problem instead of stopping at the first:
 * the config, each prompt (load, render with its test props, eval binding, tools) and each
 * dataset it names (every row, against the prompt's input_schema).
 */
export async function validateProject(project: Project, promptPaths: string[]): Promise<ValidationReport> {
  const report: ValidationReport = { errors: [], warnings: [], prompts: 0, datasets: 0, rows: 0 };
  const loaded = await checkConfig(project);
  report.errors.push(...loaded.errors);
  report.warnings.push(...loaded.warnings);
  const config = loaded.config;
  const datasetsSeen = new Set<string>();
  for (const path of promptPaths) {
    report.prompts++;
    const checked = await checkPrompt(project, config, path);
    report.errors.push(...checked.errors);
    report.warnings.push(...checked.warnings);
    if (!checked.dataset) continue;
    const simulator = checked.dataset.conversation?.settings?.simulator?.path ?? null;
    const key = `${checked.dataset.path}\0${JSON.stringify(checked.dataset.inputSchema ?? null)}\0${JSON.stringify([checked.dataset.conversation !== undefined, simulator])}`;
    const missing = checked.prompt === undefined ? undefined : new MissingProps(checked.prompt);
    // A dataset read for another prompt is not read again, unless this one needs its rows' keys.
    const seen = datasetsSeen.has(key);
    if (seen && missing?.needed !== true) continue;
    datasetsSeen.add(key);
    const rowEvals = checked.binding === undefined ? undefined : { ...checked.binding, file: relative(project.root, checked.dataset.path) };
    const rows = await checkDataset(checked.dataset.path, checked.dataset.inputSchema, {
      ...(missing === undefined ? {} : { missing }),
      ...(seen || rowEvals === undefined ? {} : { rowEvals }),
      ...(checked.dataset.conversation === undefined ? {} : { conversation: checked.dataset.conversation }),
      ...(checked.dataset.labels === undefined ? {} : { labels: { ...checked.dataset.labels, file: relative(project.root, checked.dataset.path) } }),
    });
    if (!seen) {
      report.datasets++;
      report.errors.push(...rows.errors);
      report.rows += rows.rows;
    }
    if (missing !== undefined) report.warnings.push(...missing.warnings(project.root, checked.dataset.path));
  }
  return report;
}

/** Loads the project's config (and client scorers) as `validate` does, its load error collected. */
export async function checkConfig(project: Project): Promise<{ config?: LoadedConfig; errors: AgentmarkError[]; warnings: string[] }> {
  try {
    const config = await loadConfig(project, { client: true, fsCache: true });
    return { config, errors: [], warnings: [...(config.warnings ?? [])] };
  } catch (error) {
    if (isAgentmarkError(error)) return { errors: [error], warnings: [] };
    throw error;
  }
}

/**
 * One prompt as `validate` checks it: load, render with its test props, tools, agent and eval
 * binding (when the config loaded), and where its dataset is. Also what the language server
 * reports of an open prompt, so both say the same.
 */
export async function checkPrompt(project: Project, config: LoadedConfig | undefined, path: string): Promise<PromptCheck> {
  const report: PromptCheck = { errors: [], warnings: [] };
  const collect = (error: unknown): void => {
    if (isAgentmarkError(error)) report.errors.push(error);
    else throw error;
  };
  let prompt;
  try {
    prompt = await loadPrompt(path, { project, filters: config?.filters });
  } catch (error) {
    collect(error);
    for (const warning of await unknownKeysOfFile(path)) if (warning.likelyTypo !== undefined) report.errors.push(typoError(warning));
    return report;
  }
  report.prompt = prompt;
  for (const warning of prompt.warnings) {
    if (warning.likelyTypo !== undefined) {
      report.errors.push(typoError(warning));
      continue;
    }
    const where = [relative(project.root, warning.file), warning.line, warning.column].filter((p) => p !== undefined).join(':');
    report.warnings.push(`${where}: ${warning.message}`);
  }
  try {
    prompt.render(prompt.testSettings.props ?? {});
  } catch (error) {
    collect(error);
  }
  if (config) {
    try {
      checkTools(prompt.frontmatter.text_config?.tools ?? [], config.tools ?? {}, prompt.path);
      resolveAgent(config.agents, undefined, prompt);
      const context: BindContext = {
        ...promptBindContext(project, config, prompt),
        // Binding checks a judge eval's options and prompt; validate never calls the judge.
        judge: () => Promise.reject(new Error('validate does not call judge models')),
        embed: () => Promise.reject(new Error('validate does not call embedding models')),
      };

      const bound = await bindEvals(prompt.testSettings.evals ?? [], context);
      report.binding = { context, evals: bound.evals };
      report.warnings.push(...bound.warnings);
    } catch (error) {
      collect(error);
    }
  }
  // The conversation checks a run makes before any call (the same functions).
  let conversation: { settings: ConversationSettings | undefined } | undefined;
  try {
    conversation = { settings: await checkedConversationSettings(prompt, project, config?.filters) };
  } catch (error) {
    collect(error);
  }
  report.errors.push(...turnAndRowEvalErrors(prompt));
  const dataset = prompt.testSettings.dataset;
  if (!dataset) return report;
  try {
    const datasetPath = resolveDatasetPath(dataset, prompt.path, project, prompt.locate(['test_settings', 'dataset']));
    report.dataset = { path: datasetPath, inputSchema: prompt.inputSchema, labels: { evalNames: [...(prompt.testSettings.evals ?? []), ...Object.keys(config?.scorers ?? {})], scores: project.scores } };
    if (conversation !== undefined) report.dataset.conversation = { file: relative(project.root, datasetPath), ...conversation };
  } catch (error) {
    collect(error);
  }
  return report;
}

/** Every row of a dataset, against an input_schema, each bad row an error at its line (and its evals, bound). */
export async function checkDataset(path: string, inputSchema: object | undefined, options: DatasetCheckOptions = {}): Promise<DatasetCheck> {
  const { missing } = options;
  const rowEvals = options.rowEvals === undefined ? undefined : new RowEvalCollector();
  const report: DatasetCheck = { errors: [], rows: 0 };
  const collect = (error: unknown): void => {
    if (isAgentmarkError(error)) report.errors.push(error);
    else throw error;
  };
  try {
    const conversation = options.conversation;
    const rowCheck: RowCheck | undefined = conversation === undefined ? undefined : await conversationRowCheck(conversation.file, path, conversation.settings);
    const check: RowCheck | undefined = rowEvals === undefined ? rowCheck : rowCheck === undefined ? rowEvals.check : bothChecks(rowEvals.check, rowCheck);
    for await (const row of readDataset(path, { inputSchema, onError: collect })) {
      report.rows++;
      missing?.add(row);
      const problem = check?.(row);
      if (problem !== undefined) collect(problem);
      const label = options.labels === undefined ? undefined : labelProblemOf(row, options.labels.evalNames, options.labels.scores);
      // Placed at the label's value (the row's line read again, on this error path only).
      if (label !== undefined && options.labels !== undefined) collect(labelError(label, await locateRowField(path, options.labels.file, row.line, `/labels/${label.name.replace(/~/g, '~0').replace(/\//g, '~1')}`)));
    }
  } catch (error) {
    collect(error);
  }
  if (options.rowEvals !== undefined && rowEvals !== undefined && !rowEvals.empty) {
    try {
      const { evals, context, file } = options.rowEvals;
      await (await rowEvals.bind(evals, context, { path, file })).close();
    } catch (error) {
      collect(error);
    }
  }
  return report;
}

/** A likely typo of a known frontmatter key has no effect on a run, which is never what was meant. */
function typoError(warning: PromptWarning): PromptSyntaxError {
  return new PromptSyntaxError('PROMPT_UNKNOWN_KEY', warning.message.replace(/; did you mean .*$/, ''), {
    location: { file: warning.file, ...(warning.line === undefined ? {} : { line: warning.line, column: warning.column ?? 1 }) },
    hint: `did you mean "${warning.likelyTypo}"? (AgentMark ignores unknown keys, so as written the setting has no effect; a run only warns)`,
  });
}
