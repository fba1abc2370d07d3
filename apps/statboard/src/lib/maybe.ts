/**
 * A value that is there at once (a cache hit) or later (a load). The cached reads return one so that a cached
 * answer needs no promise; they are written once for both cases, as methods called at once or after the promise.
 */
export type Maybe<T> = T | Promise<T>;
