/** What a source can be; the CLI lists them without loading the source schemas. */
export const SOURCE_KINDS = ['openclaw', 'claude-code', 'jsonl', 'markdown'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
