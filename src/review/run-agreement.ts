import type { ScoreSchema } from '../project/types.js';
import { AgreementCollector, type RunAgreement } from '../scoring/agreement/index.js';
import type { RunStore, StoredRun } from '../store/index.js';
import { runLabels } from './run-labels.js';

export interface RunAgreementReport extends RunAgreement {
  /** Rows with at least one label, and label lines given in this run itself. */
  labelledRows: number;
  ownLabels: number;
  /** Labels that came from earlier runs with the same output. */
  carried: number;
}

/** Judge–human agreement of a stored run: its own labels, carried ones and its dataset's. */
export async function agreementOfRun(run: StoredRun, scores: Readonly<Record<string, ScoreSchema>>, store?: RunStore): Promise<RunAgreementReport> {
  const labels = await runLabels(run, store);
  const collector = new AgreementCollector(scores);
  let labelledRows = 0;
  let carried = 0;
  for await (const row of run.rowsInOrder()) {
    const found = labels.labelsFor(row).filter((label) => label.eval in row.evals);
    if (found.length === 0) continue;
    labelledRows++;
    carried += found.filter((label) => label.carriedFrom !== undefined).length;
    collector.add(row, found);
  }
  return { ...collector.finish(), labelledRows, ownLabels: labels.own, carried };
}
