// One entry point for the transcript parsers: pick one by format name, or parse a batch of lines
// in one call. The capture layer (files, databases, checkpoints, redaction) builds on this.
import { invalidInput } from '../../core/errors.js';
import type { ParseResult } from '../turn-draft.js';
import { createClaudeCodeParser } from './claude-code.js';
import type { ParserOptions, TranscriptParser } from './common.js';
import { createGenericJsonlParser } from './generic-jsonl.js';
import { createOpenClawParser } from './openclaw.js';

export type { ParserOptions, TranscriptParser } from './common.js';
export { createClaudeCodeParser } from './claude-code.js';
export { createGenericJsonlParser } from './generic-jsonl.js';
export { createOpenClawParser } from './openclaw.js';

import { TRANSCRIPT_FORMATS, type TranscriptFormat } from './names.js';

export { TRANSCRIPT_FORMATS, type TranscriptFormat } from './names.js';

export function isTranscriptFormat(name: string): name is TranscriptFormat {
  return (TRANSCRIPT_FORMATS as readonly string[]).includes(name);
}

const FACTORIES: Record<TranscriptFormat, (options?: ParserOptions) => TranscriptParser> = {
  openclaw: createOpenClawParser,
  'claude-code': createClaudeCodeParser,
  jsonl: createGenericJsonlParser,
};

/** Validates a format name from the outside; an unknown one is an INVALID_INPUT error. */
export function parseTranscriptFormat(name: unknown): TranscriptFormat {
  if (typeof name === 'string' && isTranscriptFormat(name)) return name;
  throw invalidInput(`Unknown transcript format "${String(name).slice(0, 40)}": use one of ${TRANSCRIPT_FORMATS.join(', ')}`);
}

/** A new parser for `format`; an unknown format name is an INVALID_INPUT error. */
export function createParser(format: string, options: ParserOptions = {}): TranscriptParser {
  return FACTORIES[parseTranscriptFormat(format)](options);
}

/**
 * Parses complete input in one go: numbers lines from `firstLine` (default 1), pushes them all,
 * flushes, and returns everything. For a whole file or a test; a growing file wants `createParser`.
 */
export function parseLines(format: string, lines: Iterable<string>, options: ParserOptions & { firstLine?: number } = {}): ParseResult {
  const parser = createParser(format, options);
  let lineNo = options.firstLine ?? 1;
  for (const line of lines) parser.push(line, lineNo++);
  parser.flush();
  return parser.take();
}
