import { resolve } from 'node:path';
import type { LanguageModel, Tool } from 'ai';
import { rowLabels } from '../dataset/index.js';
import { formatSeconds } from '../format-seconds.js';
import type { DatasetRow } from '../dataset/types.js';
import { loadAiSdk } from '../model/index.js';
import type { TokenUsage, ToolCallRecord } from '../model/types.js';
import type { LoadedPrompt } from '../prompt/types.js';
import { AgentError } from './agent-error.js';
import { watchBackgroundErrors } from './background-errors.js';
import { agentPrompt } from './agent-prompt.js';
import { agentAnswer, type AgentAnswer } from './agent-result.js';
import { recordedTools } from './agent-tools.js';
import { CallLog } from './call-log.js';
import { HeapSampler } from './heap-sampler.js';
import { recordingModel, type RecordingSdk } from './recording-model.js';
import type { AgentTransport } from './transport.js';
import type { AgentContext, AgentFunction, AgentPrompt, AgentRowRecord } from './types.js';

/**
 * How long a timed-out agent has to stop after its signal aborts before the row gives up on it
 * (it is then abandoned, still running, and a warning names it).
 */
const ABANDON_GRACE_MS = 1000;

export interface AgentSetup {
  name: string;
  fn: AgentFunction;
  transport: AgentTransport;
  /** The experiment's prompt. */
  prompt: LoadedPrompt;
  /** The prompt's model_name, or `--model`. */
  modelName: string;
  /** The config's tools. */
  tools: Record<string, Tool>;
  projectRoot: string;
  /** Loads another prompt of the project (absolute path). */
  loadPrompt: (path: string) => Promise<LoadedPrompt>;
  /** Warnings for the run (each said once per agent by the runner). */
  warn: (message: string) => void | Promise<void>;
  now?: () => number;
}

/** The fields of a row result an agent run fills in. */
export interface AgentRowOutcome {
  output: AgentAnswer['output'];
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  costUsd?: number;
  latencyMs: number;
  cached: boolean;
  retries: number;
  finishReason?: string;
  agent: AgentRowRecord;
}

export interface AgentRunner {
  name: string;
  /** Runs one row × repeat; throws an AgentError when the agent fails or times out. */
  runRow(row: DatasetRow, repeat: number, signal: AbortSignal, timeoutMs: number, onLive?: () => void, messages?: AgentContext['messages']): Promise<AgentRowOutcome>;
}

/** Loads what every row's context needs once (the `ai` package), and returns the row runner. */
export async function createAgentRunner(setup: AgentSetup): Promise<AgentRunner> {
  const ai: RecordingSdk = await loadAiSdk();
  const now = setup.now ?? Date.now;
  const main = agentPrompt(setup.prompt, setup.modelName);
  const warned = new Set<string>();
  const warnOnce = async (kind: string, message: string): Promise<void> => {
    if (warned.has(kind)) return;
    warned.add(kind);
    await setup.warn(message);
  };

  return {
    name: setup.name,
    async runRow(row, repeat, rowSignal, timeoutMs, onLive, messages) {
      const log = new CallLog(now);
      const stop = new AbortController();
      const followRow = (): void => stop.abort(rowSignal.reason);
      if (rowSignal.aborted) followRow();
      else rowSignal.addEventListener('abort', followRow, { once: true });
      const timer = setTimeout(() => stop.abort(AgentError.timedOut(setup.name, timeoutMs)), timeoutMs);
      // A stray rejection or a throw in a timer while this row runs is this row's error (and
      // that of every other agent row in flight): the code that threw is theirs.
      let background: AgentError | undefined;
      const unwatch = watchBackgroundErrors((error, kind) => {
        background ??= AgentError.background(setup.name, error, kind);
        stop.abort(background);
      });
      const scope = { log, repeat, signal: stop.signal, timeoutMs, now, ...(onLive === undefined ? {} : { onLive }) };
      const models = new Map<string, LanguageModel>();
      const modelOf = (id: string): LanguageModel => {
        let model = models.get(id);
        if (model === undefined) {
          model = recordingModel(id, setup.transport, scope, ai);
          models.set(id, model);
        }
        return model;
      };
      const labels = rowLabels(row.metadata);
      // Each row × repeat gets its own copy of what it may edit: the stored row keeps the dataset's
      // input (so compare pairs it with a plain run's), and repeat 2 never sees repeat 1's edit.
      const context: AgentContext = {
        props: structuredClone(row.input),
        row: { index: row.index, ...(labels.name === undefined ? {} : { name: labels.name }), tags: [...labels.tags], metadata: structuredClone(row.metadata), repeat },
        prompt: main,
        loadPrompt: async (path): Promise<AgentPrompt> => agentPrompt(await setup.loadPrompt(resolve(setup.projectRoot, path))),
        model: modelOf(setup.modelName),
        models: modelOf,
        tools: recordedTools(setup.tools, main.toolNames, log),
        signal: stop.signal,
        ...(messages === undefined ? {} : { messages: messages.map((message) => ({ ...message })) }),
      };
      const started = now();
      const heap = new HeapSampler();
      let memory: ReturnType<HeapSampler['stop']> | undefined;
      const work = Promise.resolve()
        .then(() => setup.fn(context))
        .then(agentAnswer);
      // An abandoned agent may still fail later; nobody is listening any more.
      work.catch(() => undefined);
      const stopped = new Promise<'stopped'>((settle) => {
        if (stop.signal.aborted) settle('stopped');
        else stop.signal.addEventListener('abort', () => settle('stopped'), { once: true });
      });
      try {
        const first = await Promise.race([work, stopped]);
        memory = heap.stop();
        if (first === 'stopped') {
          if (rowSignal.aborted) throw rowSignal.reason;
          if (background !== undefined) throw background;
          const settled = await settlesWithin(work, ABANDON_GRACE_MS);
          if (!settled) {
            await warnOnce(
              'abandoned',
              `agent "${setup.name}" ignored its signal: row ${row.index} was abandoned at its timeout of ${formatSeconds(timeoutMs)}, still running (pass ctx.signal as abortSignal to its calls)`,
            );
          }
          throw AgentError.timedOut(setup.name, timeoutMs);
        }
        const answer = first;
        const wallMs = now() - started;
        if (log.calls.length === 0) {
          await warnOnce(
            'no-calls',
            `agent "${setup.name}" made no model call through ctx.model or ctx.models (row ${row.index}): calls made around them are not cached, counted or priced`,
          );
        }
        const ran = outcome(setup.name, answer, log, wallMs);
        // Like its own time, a replayed row's memory is not this run's to record: results replay unchanged.
        if (!ran.cached) {
          ran.agent.peakMemoryMb = memory.peakMemoryMb;
          if (memory.approximate) ran.agent.memoryApproximate = true;
        }
        return storable(setup.name, ran);
      } catch (error) {
        if (rowSignal.aborted) throw error;
        // Ours already (a timeout, a background error, an output that cannot be stored): as it is.
        if (error instanceof AgentError) throw error;
        if (background !== undefined) throw background;
        if (stop.signal.aborted) throw AgentError.timedOut(setup.name, timeoutMs);
        throw AgentError.threw(setup.name, error);
      } finally {
        if (memory === undefined) heap.stop();
        clearTimeout(timer);
        unwatch();
        rowSignal.removeEventListener('abort', followRow);
      }
    },
  };
}

/**
 * The row's output and tool calls as the results file will hold them, made here so that what
 * cannot be stored (a circular object, a toJSON that throws, a BigInt) is this row's error naming
 * the agent, not a failed write that stops the run; scorers see the stored values.
 */
function storable(name: string, ran: AgentRowOutcome): AgentRowOutcome {
  if (typeof ran.output === 'string' && ran.toolCalls.length === 0) return ran;
  let text: string;
  try {
    text = JSON.stringify({ output: ran.output, toolCalls: ran.toolCalls });
  } catch (error) {
    throw AgentError.notJson(name, error);
  }
  const plain = JSON.parse(text) as { output?: AgentAnswer['output'] | null; toolCalls: ToolCallRecord[] };
  // toJSON may give back anything; undefined leaves the key out.
  const output = plain.output === undefined || plain.output === null ? '' : typeof plain.output === 'object' ? plain.output : String(plain.output);
  return { ...ran, output, toolCalls: plain.toolCalls };
}

function outcome(name: string, answer: AgentAnswer, log: CallLog, wallMs: number): AgentRowOutcome {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let costUsd: number | undefined = 0;
  let retries = 0;
  for (const call of log.calls) {
    usage.inputTokens += call.usage.inputTokens;
    usage.outputTokens += call.usage.outputTokens;
    usage.totalTokens += call.usage.totalTokens;
    costUsd = costUsd === undefined || call.costUsd === undefined ? undefined : costUsd + call.costUsd;
    retries += Math.max(0, call.attempts - 1);
  }
  const toolCalls = answer.toolCalls ?? (log.toolCalls.length > 0 ? log.toolCalls : (answer.stepToolCalls ?? []));
  // A replayed row shows what its recording showed, as a cached prompt row does: its calls'
  // recorded latencies, and no own time (nothing of this run's clock goes into its results).
  const cached = log.calls.length > 0 && log.calls.every((call) => call.cached);
  return {
    output: answer.output,
    toolCalls,
    usage,
    ...(costUsd === undefined || log.calls.length === 0 ? {} : { costUsd }),
    latencyMs: cached ? log.calls.reduce((sum, call) => sum + call.latencyMs, 0) : wallMs,
    cached,
    retries,
    ...(answer.finishReason === undefined ? {} : { finishReason: answer.finishReason }),
    agent: {
      name,
      calls: log.calls,
      modelCalls: log.calls.length,
      steps: answer.steps ?? log.calls.length,
      toolCalls: toolCalls.length,
      ...(cached ? {} : { agentMs: Math.max(0, wallMs - log.modelMs) }),
    },
  };
}

/**
 * Whether `work` settles within `ms`. The timer is ref'd: an agent awaiting a promise nobody
 * settles holds nothing open, and an unref'd grace timer let the process end right there, with
 * exit 0, this row unrecorded and the run's manifest still `running`. It is cleared as soon as
 * `work` settles, so it never holds a finished run open.
 */
function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((settle) => {
    const timer = setTimeout(() => settle(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      settle(true);
    };
    work.then(done, done);
  });
}
