/** Format names, as used for a source's `kind` and a turn's provenance `source`. */
export const TRANSCRIPT_FORMATS = ['openclaw', 'claude-code', 'jsonl'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
