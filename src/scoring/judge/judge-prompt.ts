import { isAbsolute, resolve } from 'node:path';
import { packageFile } from '../../package-paths.js';
import type { PathScope } from '../../project/path-scope.js';
import type { ChatMessage, LoadedPrompt } from '../../prompt/types.js';

/** The judge prompts shipped in `judges/`. */
export type ShippedJudge =
  | 'llm-judge'
  | 'accuracy'
  | 'factuality'
  | 'closed-qa'
  | 'answer-relevance'
  | 'context-faithfulness'
  | 'context-recall'
  | 'context-relevance'
  | 'g-eval'
  | 'goal-completed'
  | 'role-adherence'
  | 'knowledge-retention'
  | 'turn-relevancy';

/** Absolute path of a judge prompt shipped with this package, e.g. `llm-judge`. */
export function shippedJudgePath(name: ShippedJudge): string {
  return packageFile('judges', `${name}.prompt.mdx`);
}

/** A user's judge prompt (options.prompt) resolves against the project root. */
export function userJudgePath(path: string, projectRoot: string): string {
  return isAbsolute(path) ? path : resolve(projectRoot, path);
}

/**
 * Loaded lazily: the MDX parser is heavy and most runs have no judge. A user's prompt imports
 * components from within `scope` (the project); a shipped one from its own folder.
 */
export async function loadJudgePrompt(path: string, scope?: PathScope): Promise<LoadedPrompt> {
  const { loadPrompt } = await import('../../prompt/index.js');
  return loadPrompt(path, scope ? { scope } : {});
}

/** What a judge prompt is rendered with. */
export interface JudgeProps {
  /** The row's input props as pretty JSON. */
  input: string;
  /** The row's input props as they are, so a judge prompt of your own can read `props.item.question`. */
  item?: Record<string, unknown>;
  output: string;
  /** Empty when the row has none; `hasExpectedOutput` tells the template which. */
  expectedOutput: string;
  hasExpectedOutput: boolean;
  criteria: string;
  /** Which verdict field to fill and how (from the score schema). */
  instructions: string;
}

export interface RenderedJudge {
  messages: ChatMessage[];
  /** The prompt's own model_name, which a user's judge prompt may set. */
  modelName: string | undefined;
}

export function renderJudge(prompt: LoadedPrompt, props: JudgeProps & Record<string, unknown>): RenderedJudge {
  const rendered = prompt.render({ ...props });
  const config = 'object_config' in rendered ? rendered.object_config : 'text_config' in rendered ? rendered.text_config : undefined;
  return { messages: rendered.messages ?? [], modelName: config?.model_name };
}
