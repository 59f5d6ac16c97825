import type { Diagnostic, Range } from 'vscode-languageserver';
import type { AgentmarkError } from '../errors/index.js';
import type { PromptWarning } from '../prompt/index.js';
import { tokenRange } from './token-range.js';

/** What a quick fix needs of a diagnostic: the replacement its did-you-mean names. */
export interface DiagnosticData {
  didYouMean?: string;
}

const ERROR = 1;
const WARNING = 2;

/** `did you mean "x"?` in a hint, as validate prints it. */
export function suggestionOf(hint: string | undefined): string | undefined {
  return hint === undefined ? undefined : /did you mean "([^"]+)"\?/.exec(hint)?.[1];
}

/** A problem validate reports, as an editor shows it: the same code and message (and hint), at its word. */
export function errorDiagnostic(error: AgentmarkError, text: string): Diagnostic {
  const range = tokenRange(text, error.location?.line, error.location?.column);
  const suggestion = replacementFor(suggestionOf(error.hint), textIn(text, range));
  const data: DiagnosticData = suggestion === undefined ? {} : { didYouMean: suggestion };
  return {
    range,
    severity: ERROR,
    code: error.code,
    source: 'agentmark',
    message: error.hint === undefined ? error.message : `${error.message}\nhint: ${error.hint}`,
    data,
  };
}

/** A prompt warning (validate prints it on stderr and still passes). */
export function warningDiagnostic(warning: PromptWarning, text: string): Diagnostic {
  return {
    range: tokenRange(text, warning.line, warning.column),
    severity: WARNING,
    source: 'agentmark',
    message: warning.message,
  };
}

/**
 * What replaces the word: the suggestion, or its last segment where the suggestion is a path and
 * the word is not (`props.name` is suggested for the `nam` of `props.nam`).
 */
function replacementFor(suggestion: string | undefined, word: string): string | undefined {
  if (suggestion === undefined || word.includes('.') || !suggestion.includes('.')) return suggestion;
  return suggestion.slice(suggestion.lastIndexOf('.') + 1);
}

function textIn(text: string, range: Range): string {
  if (range.start.line !== range.end.line) return '';
  return (text.split('\n')[range.start.line] ?? '').slice(range.start.character, range.end.character);
}
