/** A FIFO lock: `run` executes tasks one at a time, in the order they asked. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The chain must continue whether the task failed or not.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
