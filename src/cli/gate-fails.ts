import type { CompareResult } from '../compare/index.js';

/** Whether a comparison's gate fails the command: regressed, or inconclusive under `--fail-on-inconclusive`. */
export function gateFails(result: CompareResult, failOnInconclusive: boolean): boolean {
  if (!result.gate.checked) return false;
  return result.gate.outcome === 'regressed' || (failOnInconclusive && result.gate.outcome === 'inconclusive');
}
