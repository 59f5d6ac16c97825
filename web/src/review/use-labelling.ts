import { useEffect, useRef, useState } from 'preact/hooks';
import type { Label, ReviewEval, ReviewRow } from '../api.js';
import type { DataSource } from '../data/source.js';
import { rememberReviewer, reviewerName } from '../data/review-session.js';

export type LabelValue = boolean | number | string;

/** What a label replaced: undo writes it back (or a cleared line when there was none). */
interface Undo {
  index: number;
  repeat: number;
  eval: string;
  value: LabelValue | null;
  note?: string;
}

export interface Labelling {
  /** False until the evals and labels have arrived (and always in a report). */
  loaded: boolean;
  evals: ReviewEval[];
  labelsOf(index: number, repeat: number): Label[];
  /** This reviewer's own label of one eval on one row (not a carried or dataset one). */
  mine(index: number, repeat: number, evalName: string): Label | undefined;
  writable: boolean;
  reviewer: string | undefined;
  setReviewer(name: string): void;
  save(index: number, repeat: number, evalName: string, value: LabelValue | null, note?: string): Promise<void>;
  /** Writes back what the last label of this page replaced; false when there is none. */
  undo(): Promise<boolean>;
  /** Grows after every write, for what depends on the labels (agreement). */
  version: number;
  error: string | undefined;
}

const key = (index: number, repeat: number): string => `${index}:${repeat}`;

/** The run's labels, and writing them (with undo) when the page may write. */
export function useLabelling(source: DataSource, id: string): Labelling {
  const [rows, setRows] = useState<Map<string, Label[]> | undefined>();
  const [evals, setEvals] = useState<ReviewEval[]>([]);
  const [reviewer, setReviewerState] = useState<string | undefined>(() => (source.saveLabel ? reviewerName() : undefined));
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | undefined>();
  const undos = useRef<Undo[]>([]);
  useEffect(() => {
    if (!source.review) return;
    source.review(id).then(
      (review) => {
        setEvals(review.evals);
        setRows(new Map(review.rows.map((r) => [key(r.index, r.repeat), r.labels])));
      },
      (e: unknown) => setError(String(e)),
    );
  }, [id]);
  const labelsOf = (index: number, repeat: number): Label[] => rows?.get(key(index, repeat)) ?? [];
  const mine = (index: number, repeat: number, evalName: string): Label | undefined =>
    labelsOf(index, repeat).find((l) => l.eval === evalName && l.reviewer === reviewer && l.carriedFrom === undefined && !l.fromDataset);
  const write = async (index: number, repeat: number, evalName: string, value: LabelValue | null, note: string | undefined): Promise<void> => {
    if (!source.saveLabel || reviewer === undefined) return;
    try {
      const row: ReviewRow = await source.saveLabel(id, { index, repeat, eval: evalName, value, reviewer, ...(note === undefined || note === '' ? {} : { note }) });
      setRows((current) => new Map(current).set(key(row.index, row.repeat), row.labels));
      setVersion((v) => v + 1);
      setError(undefined);
    } catch (e) {
      setError(String(e));
      throw e;
    }
  };
  return {
    loaded: rows !== undefined,
    evals,
    labelsOf,
    mine,
    writable: source.saveLabel !== undefined,
    reviewer,
    setReviewer(name) {
      rememberReviewer(name);
      setReviewerState(name.trim());
    },
    async save(index, repeat, evalName, value, note) {
      const before = mine(index, repeat, evalName);
      await write(index, repeat, evalName, value, note);
      undos.current.push({ index, repeat, eval: evalName, value: before?.value ?? null, ...(before?.note === undefined ? {} : { note: before.note }) });
    },
    async undo() {
      const last = undos.current.pop();
      if (!last) return false;
      await write(last.index, last.repeat, last.eval, last.value, last.note);
      return true;
    },
    version,
    error,
  };
}
