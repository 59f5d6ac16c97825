/** One score schema, `scores.<name>` in agentmark.json. */
export interface ScoreSchema {
  type: 'boolean' | 'numeric' | 'categorical';
  /** What it measures; also the criterion an LLM judge is given. */
  description?: string;
  /** Numeric range (numeric only). */
  min?: number;
  max?: number;
  /** Categorical only: each label and the score it stands for. */
  categories?: Array<{ label: string; value: number }>;
  /** This project's addition: the built-in scorer that produces this score, so no code is needed. */
  scorer?: string;
  /** This project's addition: options for `scorer`. */
  options?: Record<string, unknown>;
  /** This project's addition: `false` reports the eval without counting it in the run's verdict. @default true */
  gate?: boolean;
}

/** The parsed `agentmark.json`. Unknown keys are kept and ignored. */
export interface ProjectFile {
  version?: string;
  mdxVersion?: '1.0' | '0.0';
  agentmarkPath?: string;
  builtInModels?: string[];
  scores?: Record<string, ScoreSchema>;
  evals?: string[];
  /** This project's addition: a read-only folder of recorded answers, replayed before the live cache. */
  replayDir?: string;
  /** This project's addition: where runs are kept, `"local"` or a `postgres://` URL without its password. @default "local" */
  store?: string;
  /** Folders outside the root that prompts may read from, relative to the root. @default [] */
  allowedPaths?: string[];
  [key: string]: unknown;
}

/** A loaded project: where it is and what its agentmark.json says. */
export interface Project {
  /** Absolute folder holding agentmark.json. */
  root: string;
  /** Absolute path of agentmark.json. */
  configPath: string;
  file: ProjectFile;
  /**
   * Absolute folder under which prompts live: `<agentmarkPath>/agentmark` when that folder
   * exists (AgentMark's layout), else root + agentmarkPath.
   */
  promptRoot: string;
  scores: Record<string, ScoreSchema>;
  /** Empty when any model is allowed. */
  builtInModels: string[];
  /** Absolute folder of recorded answers a run replays and never writes (root + replayDir). */
  replayDir?: string;
  /** agentmark.json `allowedPaths`, absolute; absent when the key is. See `projectScope`. */
  allowedPaths?: string[];
}
