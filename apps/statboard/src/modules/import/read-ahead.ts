/** How much reading may run ahead of the one consuming the results. */
export interface ReadAheadLimits {
  /** Items started and not yet consumed. */
  items: number;
  /** Bytes (as `weigh` says) of the items started and not yet consumed; one item alone may exceed it. */
  bytes: number;
}

/**
 * Reads `items` in order, several at once, and yields each result in order. An item is weighed (cheaply: its
 * size on disk) before it is read, and is read only while the items started and not yet consumed stay within
 * both limits, so the memory held by read-ahead is bounded whatever the files; an item's weight is given back
 * when the consumer asks for the next result (it has processed this one). `weigh` and `read` must not reject.
 */
export async function* readAhead<T, W, R>(
  items: Iterable<T>,
  limits: ReadAheadLimits,
  weigh: (item: T) => Promise<{ bytes: number; weighed: W }>,
  read: (item: T, weighed: W) => Promise<R>,
): AsyncGenerator<R> {
  const source = items[Symbol.iterator]();
  const started: { bytes: number; result: Promise<R> }[] = [];
  let inFlight = 0;
  let next: { item: T; bytes: number; weighed: W } | null = null;
  let exhausted = false;

  const startMore = async (): Promise<void> => {
    while (!exhausted && started.length < limits.items) {
      if (next === null) {
        const n = source.next();
        if (n.done) {
          exhausted = true;
          return;
        }
        next = { item: n.value, ...(await weigh(n.value)) };
      }
      if (started.length > 0 && inFlight + next.bytes > limits.bytes) return;
      inFlight += next.bytes;
      started.push({ bytes: next.bytes, result: read(next.item, next.weighed) });
      next = null;
    }
  };

  for (;;) {
    await startMore();
    const head = started.shift();
    if (head === undefined) return;
    yield await head.result;
    inFlight -= head.bytes;
  }
}
