// Text helpers shared by dedup and indexing: one normalisation so "the same statement" means the
// same thing everywhere.
import { createHash } from 'node:crypto';

/** Lower-cases, folds Unicode compatibility forms, collapses whitespace, drops trailing punctuation. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hash used for exact-duplicate detection. */
export function dedupKey(text: string): string {
  return sha256(normalizeText(text));
}

/** Removes NUL and other C0 control characters except tab and newline. */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}
