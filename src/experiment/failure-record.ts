import { isAgentmarkError } from '../errors/index.js';

/** Why a run failed, as its manifest keeps it: the typed error's code and message. */
export function failureRecord(failure: unknown): { code: string; message: string } | undefined {
  if (failure === undefined) return undefined;
  if (isAgentmarkError(failure)) return { code: failure.code, message: failure.message };
  return { code: 'INTERNAL', message: failure instanceof Error ? failure.message : String(failure) };
}
