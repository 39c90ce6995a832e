// A LoCoMo conversation as the generic JSONL chat transcript a user's agent would have written:
// the eval feeds these files to capture like any other transcript. Only the conversation goes in,
// never the dataset's generated summaries or observations.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError, ERROR_CODES } from '../../../src/core/errors.js';
import { namespaceOf } from '../devset.js';
import type { LocomoConversation, LocomoTurn } from './dataset.js';

export { namespaceOf };

export interface JsonlChatLine {
  role: 'user';
  content: string;
  timestamp: string;
  id: string;
  session: string;
  speaker: string;
}

/** A shared image is part of what was said: its caption goes into the turn's text. */
export function turnContent(turn: Pick<LocomoTurn, 'text' | 'caption'>): string {
  const image = turn.caption ? `[shared an image: ${turn.caption}]` : '';
  return [turn.text.trim(), image].filter(Boolean).join(' ');
}

/** Both speakers are people, so every line is a `user` message named by its speaker. */
export function transcriptLines(conv: LocomoConversation): JsonlChatLine[] {
  return conv.turns.map((t) => ({ role: 'user', content: turnContent(t), timestamp: t.timestamp, id: t.diaId, session: t.sessionId, speaker: t.speaker }));
}

/** Writes `<dir>/<namespace>.jsonl` for each conversation; returns the paths by namespace. */
export function writeTranscripts(dir: string, conversations: readonly LocomoConversation[]): Map<string, string> {
  mkdirSync(dir, { recursive: true });
  const paths = new Map<string, string>();
  for (const conv of conversations) {
    const ns = namespaceOf(conv);
    if (paths.has(ns)) throw new CairnError(ERROR_CODES.INVALID_INPUT, `LoCoMo conversations "${conv.id}" and another one map to the same namespace ${ns}`);
    const path = join(dir, `${ns}.jsonl`);
    writeFileSync(path, transcriptLines(conv).map((l) => JSON.stringify(l)).join('\n') + '\n');
    paths.set(ns, path);
  }
  return paths;
}
