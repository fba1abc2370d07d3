/** A value that is there at once (a cache hit) or later (a load). */
export type Maybe<T> = T | Promise<T>;

/**
 * `fn` applied to `value`: at once when the value is there, after it settles otherwise. Lets a read be written
 * once and still answer a cached request without a promise.
 */
export function andThen<T, U>(value: Maybe<T>, fn: (v: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
