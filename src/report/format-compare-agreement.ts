import type { CompareAgreement } from '../review/index.js';
import { agreementLine } from './format-agreement.js';

/**
 * The agreement of both runs of a comparison, per eval, below compare's table: the figures are
 * each run's own (`agentmark agreement <run>`), side by side, nothing computed here.
 */
export function formatCompareAgreement(agreement: CompareAgreement, markdown = false): string {
  const names = [...new Set([...agreement.base.evals, ...agreement.head.evals].map((entry) => entry.eval))];
  const line = (side: 'base' | 'head', name: string): string => {
    const entry = agreement[side].evals.find((e) => e.eval === name);
    return entry ? agreementLine(entry) : 'no row with both a judge verdict and a label';
  };
  if (markdown) {
    const rows = names.map((name) => `| ${name} | ${line('base', name)} | ${line('head', name)} |`);
    return ['', '#### Judge agreement with people (95% intervals)', '', '| eval | base | head |', '|---|---|---|', ...rows, ''].join('\n');
  }
  const width = Math.max(...names.map((name) => name.length));
  const lines = ['', 'Judge agreement with people (labels in each run; 95% intervals):'];
  for (const name of names) lines.push(`  ${name.padEnd(width)}  base  ${line('base', name)}`, `  ${' '.repeat(width)}  head  ${line('head', name)}`);
  return `${lines.join('\n')}\n`;
}
