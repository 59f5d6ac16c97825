import { dirname } from 'node:path';
import { flattenErrors, isAgentmarkError, type AgentmarkError } from '../errors/index.js';
import { checkConfig, checkDataset, checkPrompt, type ConversationRows, type DatasetCheck, type PromptCheck, type RowEvalBinding, type RowLabelNames } from '../experiment/validate-project.js';
import { findPromptFiles } from '../prompt/index.js';
import { loadProject, type LoadedConfig, type Project } from '../project/index.js';
import type { PromptWarning } from '../prompt/index.js';
import { configSyntaxErrors } from './config-syntax.js';
import { fileKind } from './file-kind.js';
import type { OpenDocuments } from './open-documents.js';

/** Problems located in one file, from every check that found some there. */
export interface FileProblems {
  errors: AgentmarkError[];
  warnings: PromptWarning[];
}

interface DatasetEntry extends DatasetCheck {
  path: string;
}

/** Why a file is checked again: its buffer was edited (or opened, closed), or the file on disk changed (a save). */
export type ChangeSource = 'buffer' | 'disk';

/**
 * The project as the server knows it: agentmark.json and the config loaded once, every prompt
 * checked once at start, then only what an edit touches checked again (a prompt, the datasets
 * it names, the open prompts when agentmark.json or the config changes). Every check is one of
 * `validate`'s own (src/experiment/validate-project.ts), so the two always agree.
 */
export class ProjectState {
  project: Project | undefined;
  config: LoadedConfig | undefined;
  private projectErrors: AgentmarkError[] = [];
  private configErrors: AgentmarkError[] = [];
  /** The syntax errors of the config's open buffer (its unsaved text is parsed, not run). */
  private configBuffer: { path: string; errors: AgentmarkError[] } | undefined;
  readonly prompts = new Map<string, PromptCheck>();
  private readonly datasets = new Map<string, DatasetEntry>();

  constructor(private readonly documents: OpenDocuments) {}

  /** Loads the project holding `dir`, its config, and checks every prompt under it. */
  async load(dir: string): Promise<void> {
    await this.reloadProject(dir);
    if (!this.project) return;
    await this.reloadConfig();
    for (const path of await findPromptFiles(this.project.promptRoot)) await this.checkPrompt(path, false);
  }

  /** Reads agentmark.json again (the open buffer when there is one); keeps the last good project for prompts. */
  async reloadProject(dir = this.project?.root): Promise<void> {
    if (dir === undefined) return;
    try {
      this.project = await loadProject(dir);
      this.projectErrors = [];
    } catch (error) {
      if (!isAgentmarkError(error)) throw error;
      this.projectErrors = flattenErrors(error);
    }
  }

  async reloadConfig(): Promise<void> {
    if (!this.project) return;
    const loaded = await checkConfig(this.project);
    this.config = loaded.config;
    this.configErrors = loaded.errors.flatMap(flattenErrors);
  }

  /** Checks one prompt as validate does; with `withDataset`, also the rows of its dataset. */
  async checkPrompt(path: string, withDataset = true): Promise<PromptCheck | undefined> {
    if (!this.project) return undefined;
    const checked = await checkPrompt(this.project, this.config, path);
    checked.errors = checked.errors.flatMap(flattenErrors);
    this.prompts.set(path, checked);
    if (withDataset && checked.dataset) await this.datasetCheck(checked.dataset.path, checked.dataset.inputSchema, checked.dataset.conversation, checked.binding, checked.dataset.labels);
    return checked;
  }

  /** The rows of a dataset against an input_schema, checked once per version of the file. */
  async datasetCheck(path: string, inputSchema: object | undefined, conversation?: ConversationRows, binding?: RowEvalBinding, labels?: RowLabelNames): Promise<DatasetEntry> {
    // The rows' conversation keys are checked against the prompt's simulator, and their evals bound
    // as the prompt's are (when those bound), and their labels against the names a label may take:
    // all are part of the key (the score schemas change only with agentmark.json, which clears every check).
    const key = `${path}\0${JSON.stringify(inputSchema ?? null)}\0${JSON.stringify([conversation !== undefined, conversation?.settings?.simulator?.path ?? null, binding?.evals.map((e) => e.name) ?? null, labels?.evalNames ?? null])}`;
    const known = this.datasets.get(key);
    if (known) return known;
    // Located at the absolute path, as every problem the server places in a file is.
    const rowEvals = binding === undefined ? undefined : { ...binding, file: path };
    const checked = await checkDataset(path, inputSchema, { ...(conversation === undefined ? {} : { conversation: { ...conversation, file: path } }), ...(rowEvals === undefined ? {} : { rowEvals }), ...(labels === undefined ? {} : { labels: { ...labels, file: path } }) });
    const entry = { path, errors: checked.errors.flatMap(flattenErrors), rows: checked.rows };
    this.datasets.set(key, entry);
    return entry;
  }

  /** A dataset changed: forget its checks, and check it again against each prompt that names it. */
  async recheckDataset(path: string): Promise<void> {
    for (const [key, entry] of this.datasets) if (entry.path === path) this.datasets.delete(key);
    const users = [...this.prompts.values()].filter((p) => p.dataset?.path === path);
    for (const user of users) await this.datasetCheck(path, user.dataset?.inputSchema, user.dataset?.conversation, user.binding, user.dataset?.labels);
    if (users.length === 0 && this.documents.get(path)) await this.datasetCheck(path, undefined);
  }

  /**
   * What changed decides what is checked again. The config is evaluated again (and the prompts
   * re-bound to its scorers) only when the file on disk changes; an edit of its buffer is parsed.
   */
  async fileChanged(path: string, source: ChangeSource = 'buffer'): Promise<void> {
    switch (fileKind(path)) {
      case 'prompt':
        await this.checkPrompt(path);
        return;
      case 'project':
        await this.reloadProject(this.project?.root ?? dirname(path));
        await this.recheckPrompts();
        return;
      case 'config':
        if (source === 'disk') {
          await this.reloadConfig();
          await this.recheckPrompts();
        }
        this.checkConfigBuffer(path);
        return;
      case 'dataset':
        await this.recheckDataset(path);
        return;
      case 'component':
        await this.recheckPrompts((check) => check.prompt?.files.includes(path) === true);
        return;
      default:
    }
  }

  private checkConfigBuffer(path: string): void {
    const text = this.documents.text(path);
    this.configBuffer = text === undefined ? undefined : { path, errors: configSyntaxErrors(path, this.project?.root ?? dirname(path), text) };
  }

  /** The open prompts first (their diagnostics are shown), then the others. */
  private async recheckPrompts(which: (check: PromptCheck) => boolean = () => true): Promise<void> {
    this.datasets.clear();
    const paths = [...this.prompts.entries()].filter(([, check]) => which(check)).map(([path]) => path);
    const open = new Set(this.documents.paths());
    for (const path of paths) if (open.has(path)) await this.checkPrompt(path);
    for (const path of paths) if (!open.has(path)) await this.checkPrompt(path, false);
  }

  /** Every problem located in `file`, once each. */
  problemsOf(file: string): FileProblems {
    const errors: AgentmarkError[] = [];
    const warnings: PromptWarning[] = [];
    const seen = new Set<string>();
    const add = (error: AgentmarkError) => {
      if (error.location?.file !== file) return;
      const key = `${error.code}\0${error.message}\0${error.location.line}\0${error.location.column}`;
      if (seen.has(key)) return;
      seen.add(key);
      errors.push(error);
    };
    this.projectErrors.forEach(add);
    // An open config's syntax is its buffer's: the saved file's syntax error is stale (or fixed).
    const buffer = this.configBuffer;
    for (const error of this.configErrors) if (buffer === undefined || error.code !== 'CONFIG_SYNTAX' || error.location?.file !== buffer.path) add(error);
    buffer?.errors.forEach(add);
    for (const check of this.prompts.values()) {
      check.errors.forEach(add);
      for (const warning of check.prompt?.warnings ?? []) if (warning.file === file && warning.likelyTypo === undefined) warnings.push(warning);
    }
    for (const entry of this.datasets.values()) entry.errors.forEach(add);
    return { errors, warnings };
  }
}
