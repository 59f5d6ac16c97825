import type { Attributes, Context, Tracer } from '@opentelemetry/api';
import type { ServerOf } from './gen-ai.js';

/** What every row of one run shares. */
export interface RowSpanContext {
  tracer: Tracer;
  /** The run's root span, as the parent context. */
  parent: Context;
  /** `provider/model` of the run. */
  model: string;
  /** The judges' model, when known (`--judge-model`, the config's `judgeModel`). */
  judgeModel: string | undefined;
  settings: Record<string, unknown>;
  serverOf: ServerOf;
  content: boolean;
  /** Attributes every row span repeats (Langfuse's experiment context). */
  shared: Attributes;
  /** Where a row without a stored end time ends (runs stored before rows had one): the run's start. */
  fallbackEnd: number;
}
