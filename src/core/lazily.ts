// A value built on first use, then kept. The config's zod schemas are hundreds of objects (each
// with its methods as closures): building them at import cost every command ~35 ms of a cold
// start, though a command whose config was validated before never parses it (config-cache.ts).
export type Lazy<T> = (() => T) & {
  /** What builds the value: its source text tells one version of a schema from another. */
  readonly builder: () => T;
};

export function lazily<T>(build: () => T): Lazy<T> {
  let built: { value: T } | null = null;
  return Object.assign(() => (built ??= { value: build() }).value, { builder: build });
}
