import type { Attributes, Context, Link } from '@opentelemetry/api';
import type { SpanStarter } from './lean-span.js';
import type { ServerOf } from './gen-ai.js';
import type { RenderMessages } from './messages.js';

/** What every row of one run shares. */
export interface RowSpanContext {
  tracer: SpanStarter;
  /** The run's root span as the parent context, or (one trace per row) the root context. */
  parent: Context;
  /** One trace per row: the link from each row span to the run's span. */
  links: Link[];
  /** `provider/model` of the run. */
  model: string;
  /** The judges' model, when known (`--judge-model`, the config's `judgeModel`). */
  judgeModel: string | undefined;
  settings: Record<string, unknown>;
  serverOf: ServerOf;
  content: boolean;
  /** With content: the row's rendered messages, for `gen_ai.input.messages`. */
  renderMessages?: RenderMessages | undefined;
  /** Attributes every row span repeats (Langfuse's experiment context). */
  shared: Attributes;
  /** Where a row without a stored end time ends (runs stored before rows had one): the run's start. */
  fallbackEnd: number;
  /** `chatRequestAttributes` of the run's model and settings, made once (every row's chat span starts with them). */
  chatRequest?: Attributes | undefined;
}
