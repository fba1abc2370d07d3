/**
 * The host interface the core runs behind (DECISIONS "Endpoint server", Hosts): whether the host is active,
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

/**
 * Runs `task` with a time limit: after `timeoutMs` the returned promise rejects with {@link TaskTimeoutError}
 * and the task's signal aborts, so the work can stop instead of piling up.
 */
export function runWithTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const timer = setTimeout(() => {
      if (!finish()) return;
      const error = new TaskTimeoutError();
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    const onAbort = (): void => {
      if (!finish()) return;
      const error = new TaskAbortedError();
      controller.abort(error);
      reject(error);
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = task(controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        if (finish()) resolve(value);
      },
      (error: unknown) => {
        if (finish()) reject(error);
      },
    );
  });
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
  };
}
