export { AgentmarkError, isAgentmarkError, type AgentmarkErrorOptions, type SourceLocation } from './agentmark-error.js';
export {
  ConfigError,
  PromptSyntaxError,
  TemplateError,
  DatasetError,
  EvalBindingError,
  ModelCallError,
  UsageError,
  type ModelCallErrorOptions,
} from './kinds.js';
export { ErrorList, flattenErrors } from './error-list.js';
export { closestMatch, didYouMean, editDistance } from './closest.js';
