/**
 * Runs tasks one after another: a check reads the project state another check writes, so two
 * never interleave. A failed task is reported and the next still runs.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  run<T>(task: () => Promise<T>): Promise<T | undefined> {
    const next = this.tail.then(task).catch((error: unknown) => {
      this.onError(error);
      return undefined;
    });
    this.tail = next;
    return next;
  }
}
