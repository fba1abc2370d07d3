/**
 * De-duplication of identical requests in flight: callers asking the same thing at the same time share one
 * request, which is aborted only when every caller has gone.
 * @packageDocumentation
 */

interface Shared<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiters: number;
}

/** Shares in-flight work by key. */
export class SharedRequests<T> {
  private readonly inflight = new Map<string, Shared<T>>();

  /** Number of distinct requests in flight. */
  get size(): number {
    return this.inflight.size;
  }

  /** Joins the request for `key`, starting it with `start` when none is in flight. */
  run(key: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let shared = this.inflight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const created: Shared<T> = { promise, controller, waiters: 0 };
      const cleanup = (): void => {
        if (this.inflight.get(key) === created) this.inflight.delete(key);
      };
      promise.then(cleanup, cleanup);
      this.inflight.set(key, created);
      shared = created;
    }
    const current = shared;
    current.waiters++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        current.waiters--;
        if (current.waiters === 0) {
          if (this.inflight.get(key) === current) this.inflight.delete(key);
          current.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      current.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
