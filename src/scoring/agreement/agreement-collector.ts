import type { ScoreSchema } from '../../project/types.js';
import type { ScoredEval } from '../types.js';
import { evalAgreement, type Verdict, type VerdictKind, type VerdictPair } from './eval-agreement.js';
import { reviewerAgreement, type ReviewerAgreement } from './reviewer-agreement.js';
import { judgeVerdict, verdictKind } from './verdicts.js';
import type { RunAgreement } from './run-agreement.js';

/** A person's verdict on one eval of one row. */
export interface HumanVerdict {
  eval: string;
  value: Verdict;
  reviewer: string;
}

export type { RunAgreement };

/** The reviewer name of verdicts written in a dataset row's `labels`. */
export const DATASET_REVIEWER = 'dataset';

/**
 * Gathers, row by row, the pairs agreement needs: only labelled rows are kept (as a few
 * strings each), so an unlabelled 1,000,000-row run costs nothing. A row's human verdict is
 * its reviewers' majority; an even split leaves the row out of judge agreement (counted in
 * `ties`) but in the reviewers' own agreement. Rows come in whatever order they finished;
 * `finish` puts them in dataset order (index, then repeat) first, so the seeded bootstrap gives
 * the same interval for the same rows, however the run (or a merge of its shards) met them.
 */
export class AgreementCollector {
  private readonly kinds = new Map<string, VerdictKind>();
  private readonly pairs = new Map<string, Array<Ordered<VerdictPair>>>();
  private readonly byReviewer = new Map<string, Array<Ordered<Map<string, Verdict>>>>();
  private readonly ties = new Map<string, number>();

  constructor(private readonly schemas: Readonly<Record<string, ScoreSchema | undefined>>) {}

  add(row: { index: number; repeat?: number; evals: Readonly<Record<string, ScoredEval>> }, verdicts: readonly HumanVerdict[]): void {
    if (verdicts.length === 0) return;
    const at = { index: row.index, repeat: row.repeat ?? 0 };
    const byEval = new Map<string, Map<string, Verdict>>();
    for (const verdict of verdicts) {
      const reviewers = byEval.get(verdict.eval) ?? new Map<string, Verdict>();
      reviewers.set(verdict.reviewer, verdict.value);
      byEval.set(verdict.eval, reviewers);
    }
    for (const [name, reviewers] of byEval) {
      const kind = this.kindOf(name);
      push(this.byReviewer, name, { ...at, item: reviewers });
      const judge = judgeVerdict(row.evals[name], kind);
      if (judge === undefined) continue;
      const human = majority([...reviewers.values()]);
      if (human === undefined) {
        this.ties.set(name, (this.ties.get(name) ?? 0) + 1);
        continue;
      }
      push(this.pairs, name, { ...at, item: { judge, human } });
    }
  }

  finish(): RunAgreement {
    const evals = [...this.pairs].map(([name, pairs]) => {
      const categories = this.schemas[name]?.categories?.map((category) => category.label);
      return evalAgreement(name, this.kindOf(name), inOrder(pairs), categories);
    });
    const reviewers = [...this.byReviewer]
      .map(([name, rows]) => reviewerAgreement(name, this.kindOf(name), inOrder(rows)))
      .filter((agreement): agreement is ReviewerAgreement => agreement !== undefined);
    return { evals, reviewers, ties: Object.fromEntries(this.ties) };
  }

  private kindOf(name: string): VerdictKind {
    let kind = this.kinds.get(name);
    if (kind === undefined) {
      kind = verdictKind(this.schemas[name]);
      this.kinds.set(name, kind);
    }
    return kind;
  }
}

/** An item with the dataset position of its row. */
interface Ordered<T> {
  index: number;
  repeat: number;
  item: T;
}

function inOrder<T>(items: Array<Ordered<T>>): T[] {
  return items.sort((a, b) => a.index - b.index || a.repeat - b.repeat).map((entry) => entry.item);
}

/** The most common verdict; undefined on a tie for first place. */
function majority(values: readonly Verdict[]): Verdict | undefined {
  const counts = new Map<string, { value: Verdict; count: number }>();
  for (const value of values) {
    const key = JSON.stringify(value);
    const entry = counts.get(key) ?? { value, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  const ranked = [...counts.values()].sort((a, b) => b.count - a.count);
  if (ranked.length > 1 && ranked[0]!.count === ranked[1]!.count) return undefined;
  return ranked[0]?.value;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
