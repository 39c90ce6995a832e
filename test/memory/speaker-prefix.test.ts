// A memory made from a named turn reads "Name: <the turn>"; the indexer splits it back to make the
// memory's vector from the turn's (service/indexer.ts). The split must give back exactly what
// memoryText joined, and nothing for texts that are not a name before ': '.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memoryText, speakerPrefixed } from '../../src/memory/from-turn.js';
import type { Turn } from '../../src/core/types.js';

const turn = (speaker: string | null, text: string, role = 'user'): Turn => ({ speaker, text, role }) as unknown as Turn;

describe('speakerPrefixed', () => {
  it('gives back the name and the turn memoryText joined', () => {
    for (const [speaker, text] of [
      ['Ana', 'We moved the standup to 9:30: Bruno runs it.'],
      ['Dr. Maria Souza', 'Note: the lab opens at 8.'],
      ['Chen', ''],
    ] as const) {
      assert.deepEqual(speakerPrefixed(memoryText(turn(speaker, text), null, 10_000)), { speaker, text });
    }
  });

  it('finds no name where there is none', () => {
    for (const text of ['no colon here', ': starts with one', ' Ana: leading space', 'Ana :spaced', 'line one\nAna: line two', `${'x'.repeat(65)}: too long for a name`, 'Ana:no space']) {
      assert.equal(speakerPrefixed(text), null, text);
    }
  });
});
