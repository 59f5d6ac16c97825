import { relative } from 'node:path';
import { conversationRowCheck, conversationSettings, type ConversationSettings } from '../conversation/index.js';
import { EvalBindingError, PromptSyntaxError, UsageError } from '../errors/index.js';
import { loadPrompt, type LoadedPrompt } from '../prompt/index.js';
import { bindEvals, type BindContext, type BindResult } from '../scoring/index.js';
import type { RowCheck } from './check-verdicts.js';
import type { RunExperimentOptions } from './options.js';
import type { LoadedConfig } from '../project/index.js';
import type { Project } from '../project/types.js';

export interface ConversationSetup {
  settings: ConversationSettings | undefined;
  /** `test_settings.turn_evals` (none with --skip-eval). */
  turnEvalNames: string[];
  bindTurnEvals(context: BindContext): Promise<BindResult>;
  rowCheck(file: string, path: string): Promise<RowCheck>;
}

/**
 * A run's conversation settings, checked before any call: the simulator loads as a text or
 * object prompt of the project, and no eval is both a row eval and a turn eval (their results
 * would share one name on the row).
 */
export async function conversationSetup(options: RunExperimentOptions, prompt: LoadedPrompt): Promise<ConversationSetup> {
  const { project, config } = options;
  const settings = await checkedConversationSettings(prompt, project, config.filters);
  if (settings !== undefined && options.batch) {
    throw new UsageError('USAGE_CONFLICT', '--batch sends one request per row, but this prompt runs each row as a conversation (test_settings.conversation)', {
      hint: 'drop --batch: each turn needs the answer before it',
    });
  }
  const turnEvalNames = options.skipEval ? [] : [...new Set(prompt.testSettings.turn_evals ?? [])];
  const [conflict] = turnAndRowEvalErrors(prompt);
  if (conflict !== undefined && !options.skipEval) throw conflict;
  return {
    settings,
    turnEvalNames,
    bindTurnEvals: (context) =>
      turnEvalNames.length === 0
        ? Promise.resolve({ evals: [], warnings: [], close: () => Promise.resolve() })
        : bindEvals(turnEvalNames, { ...context, evalLocation: (index) => prompt.locate(['test_settings', 'turn_evals', index]) }),
    rowCheck: (file, path) => conversationRowCheck(file, path, settings),
  };
}

/**
 * The prompt's conversation settings with its simulator loaded and checked to be a text or
 * object prompt of the project (throws the input error otherwise). `validate` checks the same.
 */
export async function checkedConversationSettings(prompt: LoadedPrompt, project: Project, filters: LoadedConfig['filters']): Promise<ConversationSettings | undefined> {
  const settings = await conversationSettings(prompt, project, (path) => loadPrompt(path, { project, filters }));
  const simulator = settings?.simulator;
  if (simulator !== undefined && simulator.kind !== 'text' && simulator.kind !== 'object') {
    throw new PromptSyntaxError('PROMPT_SIMULATOR_INVALID', `conversation.simulator ${relative(project.root, simulator.path)} is an ${simulator.kind}_config prompt; a simulated user needs text_config`, {
      location: prompt.locate(['test_settings', 'conversation', 'simulator']),
    });
  }
  return settings;
}

/** An eval in both test_settings.evals and turn_evals: their results would share one name on the row. */
export function turnAndRowEvalErrors(prompt: LoadedPrompt): EvalBindingError[] {
  const rowEvals = new Set(prompt.testSettings.evals ?? []);
  return [...new Set(prompt.testSettings.turn_evals ?? [])].flatMap((name, index) =>
    rowEvals.has(name)
      ? [
          new EvalBindingError('EVAL_TURN_AND_ROW', `eval "${name}" is in both test_settings.evals and test_settings.turn_evals`, {
            location: prompt.locate(['test_settings', 'turn_evals', index]),
            hint: 'a turn eval gives the row its summary under its own name: list it in one of them, or give the other a score schema of another name',
          }),
        ]
      : [],
  );
}
