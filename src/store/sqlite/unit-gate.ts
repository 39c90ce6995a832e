// One open memory unit per process at a time, and nothing else on any SqliteStore while it is
// open. A unit awaits between its statements; a better-sqlite3 connection has a single
// transaction, so another call on the same connection would silently join the unit (and be
// rolled back with it), and a call on a second connection to the same file would block the event
// loop on the lock the unit holds until the busy timeout. Callers wait on this promise instead.
let open: Promise<void> | null = null;

/** The open unit's completion, or null when none is open. */
export function openUnit(): Promise<void> | null {
  return open;
}

export async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  while (open) await open;
  let release!: () => void;
  open = new Promise<void>((resolve) => (release = resolve));
  try {
    return await fn();
  } finally {
    open = null;
    release();
  }
}
