import { describe, expect, it } from 'vitest';
import { runWithTimeout, TaskAbortedError, TaskTimeoutError } from './host.ts';

describe('runWithTimeout', () => {
  it('resolves, times out with an aborted signal, or stops when the caller goes away', async () => {
    expect(await runWithTimeout(async () => 1, 100)).toBe(1);
    let seen: AbortSignal | undefined;
    await expect(
      runWithTimeout((signal) => {
        seen = signal;
        return new Promise(() => {});
      }, 20),
    ).rejects.toBeInstanceOf(TaskTimeoutError);
    expect(seen?.aborted).toBe(true);
    const caller = new AbortController();
    const pending = runWithTimeout(() => new Promise(() => {}), 1000, caller.signal);
    caller.abort();
    await expect(pending).rejects.toBeInstanceOf(TaskAbortedError);
  });
});
