import type { JudgeSpend } from '../experiment/types.js';
import type { SimulatorSpend } from '../conversation/types.js';
import { formatCost } from './format-cost.js';

const count = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** What LLM-judge calls spent: `6 calls, 1,200 tokens, $0.0003`, with `2 cached` after the calls when some were. */
export function judgeLine(judge: JudgeSpend): string {
  const cached = judge.cached > 0 ? `, ${count(judge.cached)} cached` : '';
  return `${plural(judge.calls, 'call')}${cached}, ${plural(judge.usage.totalTokens, 'token')}, ${formatCost(judge.costUsd)}`;
}

/** What the simulated users spent: `40 calls, 1,200 tokens, $0.0003` (tokens and cost of the calls made now). */
export function simulatorLine(simulator: SimulatorSpend): string {
  return `${plural(simulator.calls, 'call')}, ${plural(simulator.usage.totalTokens, 'token')}, ${formatCost(simulator.costUsd)}`;
}
