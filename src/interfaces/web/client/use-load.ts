// Loading one thing for a view: re-fetched when its key changes, a stale answer is dropped.
import { useEffect, useState } from 'preact/hooks';

export interface Load<T> {
  data: T | null;
  error: unknown;
}

export function useLoad<T>(key: string | null, load: () => Promise<T>): Load<T> {
  const [state, setState] = useState<Load<T>>({ data: null, error: null });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    setState({ data: null, error: null });
    load().then(
      (data) => live && setState({ data, error: null }),
      (error: unknown) => live && setState({ data: null, error }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state;
}
