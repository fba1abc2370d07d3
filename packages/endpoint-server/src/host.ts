/**
 * The host interface the core runs behind: whether the host is active,
 * finding a player, resolving external placeholders, and running a task within the request timeout.
 * @packageDocumentation
 */

/** What a host knows about a player who has joined. */
export interface PlayerRecord {
  /** Last login, or null when unknown. */
  readonly lastLogin: Date | null;
  /** Last seen, or null when unknown. */
  readonly lastSeen: Date | null;
}

/** The game-server side of the endpoint server. */
export interface Host {
  /** False once the host is going away; requests are then answered 503 "The plugin is shutting down.". */
  isActive(): boolean;
  /** Finds a player by name as written in the URL; null when the player never joined. */
  findPlayer(name: string, signal: AbortSignal): Promise<PlayerRecord | null>;
  /**
   * Optional fast path: the answer {@link findPlayer} would give when the host knows it without waiting
   * (from a cache), or undefined when it must be looked up. Lets the server answer without scheduling a task.
   */
  findPlayerCached?(name: string): PlayerRecord | null | undefined;
  /**
   * Resolves external placeholders (normalised as `%name%`) for a player name, or none for a server-wide
   * render. Answers come back in the order asked. Must stop work when `signal` aborts.
   */
  resolveExternal(
    placeholders: readonly string[],
    player: string | null,
    signal: AbortSignal,
  ): Promise<readonly string[]>;
  /**
   * Runs `task`, rejecting with {@link TaskTimeoutError} after `timeoutMs` and aborting the task's signal.
   * `signal` (optional) aborts the task early, e.g. when the client went away.
   */
  runTask<T>(task: (signal: AbortSignal) => Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T>;
  /**
   * Optional: {@link runTask} cancelled by calling `cancel()` instead of through a signal of the caller's,
   * which saves the server one AbortController per request.
   */
  startTask?<T>(task: (signal: AbortSignal) => Promise<T>, timeoutMs: number): CancellableTask<T>;
}

/** The task took longer than the request timeout. */
export class TaskTimeoutError extends Error {
  override readonly name = 'TaskTimeoutError';
  constructor() {
    super('the task took longer than the request timeout');
  }
}

/** The task was abandoned because its caller went away. */
export class TaskAbortedError extends Error {
  override readonly name = 'TaskAbortedError';
  constructor() {
    super('the task was abandoned');
  }
}

/** A task started by {@link startWithTimeout}: its outcome, and a way to abandon it. */
export interface CancellableTask<T> {
  /** Settles like {@link runWithTimeout}'s promise. */
  readonly promise: Promise<T>;
  /** Abandons the task: its signal aborts and the promise rejects with `reason` ({@link TaskAbortedError}). */
  cancel(reason?: Error): void;
  /** Moves the time limit to `timeoutMs` from now, if that is later than the current one. */
  extend(timeoutMs: number): void;
}

/**
 * Starts `task` with a time limit: after `timeoutMs` the promise rejects with {@link TaskTimeoutError} and the
 * task's signal aborts, so the work can stop instead of piling up. Uses one AbortController per task; in
 * Node 20 each controller is costly garbage (it is what grows the young generation under load).
 */
export function startWithTimeout<T>(task: (signal: AbortSignal) => Promise<T>, timeoutMs: number): CancellableTask<T> {
  const controller = new AbortController();
  let settled = false;
  let resolvePromise: (value: T) => void = () => {};
  let rejectPromise: (error: unknown) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    resolvePromise = resolve;
    rejectPromise = reject;
  });
  const fail = (error: Error): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    controller.abort(error);
    rejectPromise(error);
  };
  let deadline = Date.now() + timeoutMs;
  let timer = setTimeout(() => fail(new TaskTimeoutError()), timeoutMs);
  let pending: Promise<T>;
  try {
    pending = task(controller.signal);
  } catch (error) {
    pending = Promise.reject(error);
  }
  pending.then(
    (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(value);
    },
    (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      rejectPromise(error);
    },
  );
  return {
    promise,
    cancel: (reason) => fail(reason ?? new TaskAbortedError()),
    extend(ms) {
      const next = Date.now() + ms;
      if (settled || next <= deadline) return;
      deadline = next;
      clearTimeout(timer);
      timer = setTimeout(() => fail(new TaskTimeoutError()), ms);
    },
  };
}

/**
 * Runs `task` with a time limit: after `timeoutMs` the returned promise rejects with {@link TaskTimeoutError}
 * and the task's signal aborts, so the work can stop instead of piling up. When `signal` aborts first, the
 * promise rejects with {@link TaskAbortedError} (and the task is not started if it already had).
 */
export function runWithTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(new TaskAbortedError());
  const running = startWithTimeout(task, timeoutMs);
  if (!signal) return running.promise;
  const onAbort = (): void => running.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  const cleanup = (): void => signal.removeEventListener('abort', onAbort);
  running.promise.then(cleanup, cleanup);
  return running.promise;
}

/** Players and placeholder answers for {@link createMemoryHost}. */
export interface MemoryHostData {
  /** Players by exact name. */
  readonly players?: ReadonlyMap<string, PlayerRecord>;
  /** Answers an external placeholder; without it placeholders come back unchanged. */
  readonly resolve?: (placeholder: string, player: string | null, signal: AbortSignal) => string | Promise<string>;
}

/** An in-memory host for tests and embedding: players from a map, placeholders from a function. */
export function createMemoryHost(data: MemoryHostData = {}): Host & { setActive(active: boolean): void } {
  let active = true;
  const players = data.players ?? new Map<string, PlayerRecord>();
  return {
    isActive: () => active,
    setActive(value: boolean) {
      active = value;
    },
    findPlayer: async (name) => players.get(name) ?? null,
    async resolveExternal(placeholders, player, signal) {
      const resolve = data.resolve;
      if (!resolve) return placeholders;
      return Promise.all(placeholders.map((p) => resolve(p, player, signal)));
    },
    runTask: runWithTimeout,
    startTask: startWithTimeout,
  };
}
