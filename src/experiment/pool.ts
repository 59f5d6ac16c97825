/**
 * Runs `worker` over items pulled from an async iterable, at most `concurrency` at a time.
 * Items are pulled lazily, so a dataset streams through the pool and memory stays flat.
 * When `signal` aborts, no new item is pulled; in-flight work is awaited.
 */
export async function runPool<T>(
  items: AsyncIterable<T>,
  concurrency: number,
  worker: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let failure: { error: unknown } | undefined;
  // An async iterator must not be asked for two items at once; chain the pulls.
  let pulling: Promise<unknown> = Promise.resolve();
  const pull = (): Promise<IteratorResult<T>> => {
    const next = pulling.then(() => iterator.next());
    pulling = next.catch(() => undefined);
    return next;
  };

  const lane = async (): Promise<void> => {
    while (!signal?.aborted && !failure) {
      let result: IteratorResult<T>;
      try {
        result = await pull();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (result.done || signal?.aborted) return;
      try {
        await worker(result.value);
      } catch (error) {
        failure ??= { error };
        return;
      }
    }
  };

  const lanes = Array.from({ length: Math.max(1, concurrency) }, () => lane());
  await Promise.all(lanes);
  await iterator.return?.();
  if (failure) throw failure.error;
}
