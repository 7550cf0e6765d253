// Waits that end early when the run is interrupted (Ctrl-C): a poll or Retry-After wait must not
// sleep through an abort. Requests already sent are never cut off by these; only the waits between them.

/** Sleeps `ms`, or less when `signal` aborts first; its timer is cleared then, so nothing keeps the process alive. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A sleep that may honour the signal (a test's fake sleep may ignore it). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Waits with `wait` unless `signal` aborts first: true when the whole wait passed, false when it
 * was interrupted (before or during it). A wait that ignores the signal is raced against it.
 */
export function waitUnlessAborted(wait: Sleep, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (!signal) return wait(ms).then(() => true);
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    wait(ms, signal).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(!signal.aborted);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on the wrapped promise's own rejection unchanged
        reject(err);
      },
    );
  });
}
