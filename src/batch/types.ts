/** A batch job's state as the Batch API reports it. */
export type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

/** States after which a job never changes again. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['failed', 'completed', 'expired', 'cancelled']);

/** The API endpoints a batch can run; the one the live path uses for the model. */
export type BatchEndpoint = '/v1/chat/completions' | '/v1/responses' | '/v1/messages';

/** Which provider's batch API a run's jobs go to: OpenAI's Batch API, or Anthropic's Message Batches API. */
export type BatchApiName = 'openai' | 'anthropic';

export interface RequestCounts {
  total: number;
  completed: number;
  failed: number;
}

/** The fields of the API's Batch object this tool reads. */
export interface BatchObject {
  id: string;
  status: BatchStatus;
  input_file_id: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  request_counts?: RequestCounts;
  /** Present when validation failed: why the whole file was refused. */
  errors?: { data?: Array<{ code?: string; message?: string; line?: number | null }> } | null;
  metadata?: Record<string, string> | null;
  /** Anthropic: when the server created it (RFC 3339). */
  created_at?: string;
}

/** One request file of a batch run and the job made from it, as kept in the run's manifest. */
export interface BatchJobRecord {
  /** 0-based; the request file is `batch/requests-<part>.jsonl` in the run folder. */
  part: number;
  /** `judge`: the LLM-judge calls of rows whose model answers are known (a later round); absent for model calls. */
  kind?: 'judge';
  /** The endpoint its lines post to, when it is not the run's `endpoint` (judge jobs record theirs). */
  endpoint?: BatchEndpoint;
  requests: number;
  bytes: number;
  /** Set once the file is uploaded. */
  inputFileId?: string;
  /** Set once the job is created: from then on it is never submitted again. */
  batchId?: string;
  /** Last state seen. */
  status?: BatchStatus;
  counts?: RequestCounts;
  outputFileId?: string;
  errorFileId?: string;
  /** Anthropic: when the create request was first sent (set and saved before it), so a kill before its id came back is found again. */
  sentAt?: string;
  /** Anthropic: the `anthropic-beta` features its requests need (the live request's header). */
  betas?: string[];
  /** Why the whole job failed (validation), when it did. */
  failure?: string;
  /** Its output and error files are saved in the run folder. */
  downloaded?: boolean;
}

/** `manifest.batch` of a run made with `--batch`. */
export interface BatchManifest {
  /** Absent in runs made before Anthropic batches: `openai`. */
  api?: BatchApiName;
  endpoint: BatchEndpoint;
  /** Where the jobs live (the API's base URL; never the key). */
  baseURL: string;
  /** Every job of the run, all attempts; a job's request file is listed here only once it is complete. */
  jobs: BatchJobRecord[];
}
