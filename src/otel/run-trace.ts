import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { SpanStarter } from './lean-span.js';
import { ATTR_GEN_AI_PROMPT_NAME } from '@opentelemetry/semantic-conventions/incubating';
import type { RowResult, RunSummary } from '../experiment/types.js';
import type { RunManifest } from '../store/types.js';
import { chatRequestAttributes, type ServerOf } from './gen-ai.js';
import type { RenderMessages } from './messages.js';
import type { TraceLayout } from './settings.js';
import { emitRowSpans, type RowSpanContext } from './row-spans.js';

/** What a run's trace needs beyond its manifest. */
export interface RunTraceOptions {
  tracer: SpanStarter;
  serverOf: ServerOf;
  content: boolean;
  /** With content: renders a row's messages (from the prompt the run stored). */
  renderMessages?: RenderMessages | undefined;
  /** @default 'run' */
  tracePer?: TraceLayout | undefined;
  /** The config's `judgeModel` when `--judge-model` was not given (the manifest keeps only the flag). */
  judgeModel?: string | undefined;
  /** The prompt's `test_settings.experiment_key`. */
  experimentKey?: string | undefined;
}

/**
 * One run as one trace: the root span `agentmark.run` opens at the run's start and closes at
 * its end with the gates' outcome; each row × repeat becomes a child (see emitRowSpans). With
 * `tracePer: 'row'` each row × repeat is the root of its own trace instead (Langfuse models a
 * dataset item as a trace), linked to the run's span and sharing its session id. Built only from
 * the manifest and stored rows, so a live run and `runs export` agree.
 */
export class RunTrace {
  readonly #root: Span;
  readonly #rows: RowSpanContext;

  constructor(manifest: RunManifest, options: RunTraceOptions) {
    const start = Date.parse(manifest.startedAt);
    const perRow = options.tracePer === 'row';
    const session = perRow ? sessionAttributes(manifest) : {};
    this.#root = options.tracer.startSpan('agentmark.run', { kind: SpanKind.INTERNAL, startTime: start, attributes: { ...runAttributes(manifest, options), ...session } }, ROOT_CONTEXT);
    const parent: Context = perRow ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, this.#root);
    this.#rows = {
      tracer: options.tracer,
      parent,
      links: perRow ? [{ context: this.#root.spanContext(), attributes: { 'agentmark.link': 'run' } }] : [],
      model: manifest.model,
      judgeModel: judgeModelOf(manifest) ?? options.judgeModel,
      settings: manifest.settings,
      serverOf: options.serverOf,
      content: options.content,
      renderMessages: options.renderMessages,
      shared: { ...experimentContext(manifest), ...session },
      fallbackEnd: start,
      chatRequest: chatRequestAttributes(manifest.model, manifest.settings, options.serverOf),
    };
  }

  addRow(row: RowResult): void {
    emitRowSpans(row, this.#rows);
  }

  /** Closes the root span with the run's outcome, at the manifest's end time. */
  end(manifest: RunManifest, summary: RunSummary | undefined): void {
    const root = this.#root;
    root.setAttribute('agentmark.run.status', manifest.status);
    if (summary) {
      root.setAttributes({
        'agentmark.gate.passed': summary.passed,
        'agentmark.rows': summary.rows,
        'agentmark.rows.errored': summary.errored,
        'agentmark.rows.cached': summary.cached,
        ...(summary.costUsd === undefined ? {} : { 'agentmark.cost_usd': summary.costUsd }),
      });
      const failed = summary.gates.filter((gate) => !gate.passed).map((gate) => gate.name);
      if (failed.length > 0) root.setAttribute('agentmark.gate.failed', failed);
    }
    if (manifest.status === 'failed') root.setStatus({ code: SpanStatusCode.ERROR, message: 'the run failed' });
    root.end(manifest.endedAt === undefined ? Date.now() : Date.parse(manifest.endedAt));
  }
}

function runAttributes(manifest: RunManifest, options: RunTraceOptions): Attributes {
  const repeat = typeof manifest.options.repeat === 'number' ? manifest.options.repeat : 1;
  return {
    'openinference.span.kind': 'CHAIN',
    'agentmark.run.id': manifest.id,
    'agentmark.prompt.path': manifest.prompt.path,
    'agentmark.prompt.name': manifest.prompt.name,
    'agentmark.prompt.hash': manifest.prompt.hash,
    [ATTR_GEN_AI_PROMPT_NAME]: manifest.prompt.name,
    'agentmark.model': manifest.model,
    ...(manifest.dataset ? { 'agentmark.dataset.path': manifest.dataset.path, 'agentmark.dataset.hash': manifest.dataset.hash } : {}),
    ...(manifest.git ? { 'agentmark.git.commit': manifest.git.commit, 'agentmark.git.dirty': manifest.git.dirty } : {}),
    ...(options.experimentKey === undefined ? {} : { 'agentmark.experiment_key': options.experimentKey }),
    'agentmark.repeat': repeat,
    ...experimentContext(manifest),
    ...(manifest.git ? { 'langfuse.experiment.metadata.git_commit': manifest.git.commit } : {}),
    'langfuse.experiment.metadata.model': manifest.model,
    'langfuse.experiment.metadata.prompt_path': manifest.prompt.path,
  };
}

/** Langfuse's experiment identity, repeated on every row span so each item finds its experiment. */
function experimentContext(manifest: RunManifest): Attributes {
  return {
    'langfuse.experiment.id': manifest.id,
    'langfuse.experiment.name': `${manifest.prompt.name} (${manifest.model})`,
    ...(manifest.dataset ? { 'langfuse.experiment.dataset.id': `${manifest.dataset.path}@${manifest.dataset.hash.slice(0, 12)}` } : {}),
  };
}

/** What ties a run's row traces together: the run id as the session (Langfuse, Phoenix). */
function sessionAttributes(manifest: RunManifest): Attributes {
  return { 'session.id': manifest.id, 'langfuse.session.id': manifest.id, 'agentmark.trace_per': 'row' };
}

function judgeModelOf(manifest: RunManifest): string | undefined {
  const judge = manifest.options.judgeModel;
  return typeof judge === 'string' ? judge : undefined;
}
