/**
 * The viewer's JSON API, typed once for both sides: the server in src/view/ produces these and
 * the front-end in web/ consumes them (this is the only file web/ imports from src/). Types only:
 * nothing here runs, so the browser bundle gains no byte from it.
 *
 * Routes (all GET; ids are full run ids, nothing else):
 *   /api/runs                          RunsResponse
 *   /api/runs/<id>                     RunResponse
 *   /api/runs/<id>/index               RowIndex        every row, numbers only, as columns
 *   /api/runs/<id>/rows?at=<p,p,...>   RowsResponse    full rows at those positions (≤ MAX_ROWS_PER_REQUEST)
 *   /api/runs/<id>/rows/<index>        RowDetailResponse  one dataset row: its repeats and messages
 *   /api/runs/<id>/search?q=<text>     SearchResponse  positions of rows whose text contains q
 *   /api/runs/<id>/flips               FlipsResponse   rows flipped since the previous run of the prompt
 *   /api/runs/<id>/events              server-sent events, each `data:` a RunEvent
 *   /api/compare/<base>/<head>?show=<n>  CompareResponse  the two runs compared (as `agentmark compare`)
 *   /api/grid/<base>/<head>/<head>…      GridResponse     2 to 8 runs side by side (as `agentmark compare A B C`)
 *   /api/events                        server-sent events, each `data:` a RunsEvent
 *   (and the review routes, below)
 */
import type { EvalSummary, RowResult, RunSummary } from '../experiment/types.js';
import type { RunManifest } from '../store/types.js';
import type { ChatMessage } from '../prompt/types.js';
import type { CompareResult } from '../compare/types.js';
import type { GridCell, GridEval, GridResult, GridRow, GridRun } from '../compare/grid-types.js';
import type { Label } from '../review/types.js';
import type { RunAgreementReport } from '../review/run-agreement.js';
import type { VerdictKind } from '../scoring/agreement/eval-agreement.js';

export type { EvalSummary, RowResult, RunSummary, RunManifest, ChatMessage, CompareResult };
export type { ChangedRow, EvalComparison, EvalSide, Interval, RunDescription, RunPerformance } from '../compare/types.js';

/**
 * Two runs compared by src/compare, exactly what `agentmark compare --format json` prints for
 * them with the same options: the page shows these numbers and computes none of its own.
 */
export type CompareResponse = CompareResult;
/** Three or more runs side by side (`agentmark compare A B C --format json`/`html`). */
export type GridResponse = GridResult;

/** Changed rows a compare page lists when the URL does not say (`--show`'s default). */
export const DEFAULT_COMPARE_SHOW = 20;
/** The most a compare request lists. */
export const MAX_COMPARE_SHOW = 1000;

/** A page asks for at most this many rows at once. */
export const MAX_ROWS_PER_REQUEST = 500;

/** One run in the runs list: its manifest without the bulky parts. */
export interface RunListItem {
  id: string;
  promptName: string;
  promptPath: string;
  model: string;
  datasetPath?: string;
  status: RunManifest['status'];
  startedAt: string;
  endedAt?: string;
  gitCommit?: string;
  /** Only for finished runs (from the manifest's summary). */
  rows?: number;
  errored?: number;
  passed?: boolean;
  costUsd?: number;
  /** Per eval, the pass rate and mean as the summary holds them. */
  evals: Array<Pick<EvalSummary, 'name' | 'passRate' | 'passRateCi95' | 'meanScore' | 'passedCount' | 'verdictCount'>>;
  /** An interrupted run (a `running` one whose process is gone included): the command that continues it. */
  resume?: string;
}

export interface RunsResponse {
  runs: RunListItem[];
}

/** What a running run has so far; the same scoring code as the final summary computes it. */
export interface LiveSummary {
  rows: number;
  errored: number;
  evals: EvalSummary[];
}

export interface RunResponse {
  manifest: RunManifest;
  /** Eval names in the prompt's order (from the summary, or the first row of a running run). */
  evalNames: string[];
  /** Rows stored so far. */
  rowCount: number;
  /** Present while the run has no summary yet. */
  live?: LiveSummary;
  /** An interrupted run (a `running` one whose process is gone included): the command that continues it. */
  resume?: string;
}

// The rows table's columns are written by the store (a run's view index): their types live there.
export { ROW_CACHED, ROW_ERRORED, ROW_FAILED } from '../store/row-index-types.js';
export type { IndexEntry, RowIndex, VerdictChar } from '../store/row-index-types.js';
import type { IndexEntry, RowIndex } from '../store/row-index-types.js';

export interface RowsResponse {
  rows: Array<{ position: number; row: RowResult }>;
}

export interface RowDetailResponse {
  /** The row's repeats, by repeat number. */
  rows: RowResult[];
  /** Rendered from the prompt as it is now, when it is unchanged since the run; else null. */
  messages: ChatMessage[] | null;
  /** Why `messages` is null. */
  messagesNote?: string;
  /** `agentmark run-prompt ...` that runs this row again. */
  reproduce: string;
}

/** Rows whose pass/fail verdict differs from the previous run of the same prompt and model. */
export interface FlipsResponse {
  /** That run; null when there is none. */
  previous: string | null;
  /** [position in this run, the verdict it flipped to]. */
  flips: Array<[position: number, to: 'pass' | 'fail']>;
  /** With no previous run to compare with: why, when earlier runs of the prompt had no rows. */
  nothingToCompare?: string;
}

export interface SearchResponse {
  positions: number[];
}

/** Events of one run while it is going. */
export type RunEvent =
  /** Rows appended since the last event, starting at position `from`. */
  | { type: 'rows'; from: number; evalNames: string[]; entries: IndexEntry[] }
  /** The manifest or live summary changed (e.g. the run ended). */
  | { type: 'run'; run: RunResponse };

/** The runs folder changed: a run started, ended or was removed. */
export type RunsEvent = { type: 'runs' };

/** One run as a single-file report inlines it. */
export interface ReportRun {
  run: RunResponse;
  index: RowIndex;
  /** Rows in index order. */
  rows: RowResult[];
  /** Rendered messages per dataset index (as RowDetailResponse.messages). */
  messages: Record<string, ChatMessage[] | null>;
  messagesNote?: string;
  /** The reproduce command with `{index}` where the row's index goes. */
  reproduce: string;
  /** Judge–human agreement when the run has labels (as `agentmark agreement`); a report never writes. */
  agreement?: AgreementResponse;
}

/**
 * What a single-file report inlines instead of an API: one run (`run-experiment`, `runs show`),
 * or two runs and their comparison (`compare`), whose page is then the report's first page.
 */
export interface ReportData {
  /** Format of this object, for readers of saved reports. */
  version: 2;
  /** The runs page's list: the report's runs only. */
  runs: RunListItem[];
  /** Each run's data, by run id order of `runs`. */
  reports: ReportRun[];
  compare?: CompareResponse;
  /** A results grid of three or more runs: the report opens on it. */
  grid?: GridResponse;
}

export type { GridCell, GridEval, GridRow, GridRun };

/*
 * Review (human labels) and judge–human agreement:
 *   GET  /api/runs/<id>/review                       ReviewResponse   evals to label, every label in force
 *   GET  /api/runs/<id>/agreement                    AgreementResponse  as `agentmark agreement <id> --format json`
 *   GET  /api/runs/<id>/queue?filter=<f>&eval=<e>&k=<n>&seed=<s>  QueueResponse  positions to review
 *   POST /api/runs/<id>/labels   LabelBody → ReviewRowResponse   (needs the session token; see src/view/write-guard.ts)
 */

export type { Label, RunAgreementReport, VerdictKind };
export type { EvalAgreement as EvalAgreementShown } from '../scoring/agreement/eval-agreement.js';

/** Header carrying the per-session token on every write. */
export const SESSION_TOKEN_HEADER = 'x-agentmark-token';
/** The largest write body the server reads. */
export const MAX_WRITE_BYTES = 16 * 1024;

/** One eval as a reviewer labels it: its kind (from the score schema) and whether an LLM judge scores it. */
export interface ReviewEval {
  name: string;
  kind: VerdictKind;
  /** Categorical scores: the labels, in the schema's order. */
  categories?: string[];
  min?: number;
  max?: number;
  /** Scored by the built-in `llm_judge` (scores.<name>.scorer in agentmark.json). */
  judge: boolean;
}

/** The labels in force on one row (and repeat): own, carried over from earlier runs, and the dataset's. */
export interface ReviewRow {
  index: number;
  repeat: number;
  labels: Label[];
}

export interface ReviewResponse {
  evals: ReviewEval[];
  /** Only rows with at least one label. */
  rows: ReviewRow[];
}

export type ReviewRowResponse = ReviewRow;

/** What the page posts to label one eval of one row; `value: null` takes the reviewer's label back. */
export interface LabelBody {
  index: number;
  repeat: number;
  eval: string;
  value: boolean | number | string | null;
  note?: string;
  /** Defaults to the server's reviewer (`--reviewer`, or git config user.name). */
  reviewer?: string;
}

export type AgreementResponse = RunAgreementReport;

/** Queue filters: rows an LLM judge scored, whose judge's reason voices doubt, a seeded sample, where people and the judge disagree. */
export type QueueFilter = 'all' | 'judged' | 'doubt' | 'sample' | 'disagree' | 'unreviewed-by-me' | 'unreviewed';

export interface QueueResponse {
  filter: QueueFilter;
  /** Index positions (as in RowIndex) of the rows to review, in dataset order. */
  positions: number[];
}

/** What the served shell page tells the app about writing (absent in a report and with --read-only). */
export interface ReviewSession {
  token: string;
  /** The server's reviewer name; the page asks for one when absent. */
  reviewer?: string;
}
