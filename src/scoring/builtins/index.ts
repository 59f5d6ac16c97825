import type { BuiltinScorer } from '../types.js';
import { agentScorers } from './tool-calls.js';
import { conversationScorers } from './conversation.js';
import { memoryScorers } from './memory.js';
import { conversationJudgeScorers } from './conversation-judges.js';
import { jsonScorers } from './json.js';
import { judgeScorers } from './llm-judge.js';
import { referenceJudges } from './reference-judges.js';
import { ragJudges } from './rag-judges.js';
import { numericScorers } from './numeric.js';
import { overlapScorers } from './overlap-scorers.js';
import { performanceScorers } from './performance.js';
import { similarityScorers } from './similarity.js';
import { embeddingScorers } from './embedding-similarity.js';
import { textCheckScorers } from './text-checks.js';
import { textMatchScorers } from './text-match.js';
import { toolCallScorers } from './valid-tool-calls.js';

/** Every built-in scorer by name, in the order `--help` style listings show them. */
export const builtinScorers: Readonly<Record<string, BuiltinScorer>> = Object.freeze(
  Object.fromEntries(
    [
      ...textMatchScorers,
      ...textCheckScorers,
      ...jsonScorers,
      ...similarityScorers,
      ...embeddingScorers,
      ...overlapScorers,
      ...numericScorers,
      ...agentScorers,
      ...toolCallScorers,
      ...performanceScorers,
      ...memoryScorers,
      ...conversationScorers,
      ...judgeScorers,
      ...conversationJudgeScorers,
      ...referenceJudges,
      ...ragJudges,
    ].map((scorer) => [scorer.name, scorer]),
  ),
);
