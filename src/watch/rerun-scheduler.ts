/** What to rerun: every selected row, or only these row indexes (`f`). */
export interface RerunRequest {
  onlyIndexes?: ReadonlySet<number>;
}

export type RerunTask = (experiment: string, request: RerunRequest, signal: AbortSignal) => Promise<void>;

interface Slot {
  active?: { controller: AbortController; done: Promise<void> };
  pending?: RerunRequest;
}

/**
 * One run at a time per experiment. A request for an experiment that is running aborts that
 * run and starts a fresh one once it has wound down, so results always reflect the newest
 * files; requests that arrive meanwhile merge into the one pending rerun.
 */
export class RerunScheduler {
  private readonly slots = new Map<string, Slot>();
  private closed = false;

  constructor(
    private readonly task: RerunTask,
    private readonly onError: (experiment: string, error: unknown) => void,
  ) {}

  request(experiment: string, request: RerunRequest = {}): void {
    if (this.closed) return;
    let slot = this.slots.get(experiment);
    if (!slot) this.slots.set(experiment, (slot = {}));
    slot.pending = slot.pending ? merge(slot.pending, request) : request;
    if (slot.active) slot.active.controller.abort();
    else this.start(experiment, slot);
  }

  /** Stops the experiment's run (if any) and forgets its pending rerun. */
  async cancel(experiment: string): Promise<void> {
    const slot = this.slots.get(experiment);
    if (!slot) return;
    this.slots.delete(experiment);
    slot.pending = undefined;
    slot.active?.controller.abort();
    await slot.active?.done;
  }

  /** Resolves once no experiment is running or waiting to rerun. */
  async idle(): Promise<void> {
    for (;;) {
      const active = [...this.slots.values()].flatMap((slot) => (slot.active ? [slot.active.done] : []));
      if (active.length === 0) return;
      await Promise.all(active);
    }
  }

  /** Aborts everything and waits for the runs to wind down; later requests are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots.keys()].map((experiment) => this.cancel(experiment)));
  }

  private start(experiment: string, slot: Slot): void {
    const request = slot.pending ?? {};
    slot.pending = undefined;
    const controller = new AbortController();
    const done = this.task(experiment, request, controller.signal)
      .catch((error: unknown) => this.onError(experiment, error))
      .finally(() => {
        slot.active = undefined;
        if (slot.pending && !this.closed && this.slots.get(experiment) === slot) this.start(experiment, slot);
      });
    slot.active = { controller, done };
  }
}

/** All rows wins over a subset; two subsets add up. */
function merge(a: RerunRequest, b: RerunRequest): RerunRequest {
  if (!a.onlyIndexes || !b.onlyIndexes) return {};
  return { onlyIndexes: new Set([...a.onlyIndexes, ...b.onlyIndexes]) };
}
