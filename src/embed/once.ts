// "Load once, but try again after a failure": every embedder initialises this way (a model that
// failed to load, or an endpoint that was down, gets another chance on the next call).

export interface Once<T> {
  (): Promise<T>;
  /** Forgets a loaded value (after close) so the next call loads again. */
  reset(): void;
}

export function onceUntilFailure<T>(load: () => Promise<T>): Once<T> {
  let pending: Promise<T> | undefined;
  const get = (() => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  }) as Once<T>;
  get.reset = () => {
    pending = undefined;
  };
  return get;
}
