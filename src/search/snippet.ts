// A short excerpt of a result around the query's words, so a person (or an agent with a token
// budget) sees why it matched without reading the whole text.

import { matchesTerm } from './coverage.js';

const DEFAULT_WIDTH = 240;


export function makeSnippet(text: string, terms: readonly string[], width = DEFAULT_WIDTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= width) return flat;
  const re = /[\p{L}\p{N}]+/gu;
  const hits: number[] = [];
  for (let m = re.exec(flat); m; m = re.exec(flat)) {
    if (matchesTerm(m[0].toLowerCase(), terms)) hits.push(m.index);
  }
  if (hits.length === 0) return flat.slice(0, width - 1).trimEnd() + '…';
  // Slide a window over the hit positions and keep the one that covers the most hits.
  let best = hits[0]!;
  let bestCount = 0;
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (hits[j]! < hits[i]! - width * 0.7) j++;
    if (i - j + 1 > bestCount) {
      bestCount = i - j + 1;
      best = hits[j]!;
    }
  }
  let start = Math.max(0, best - Math.floor(width * 0.2));
  if (start + width > flat.length) start = Math.max(0, flat.length - width);
  // Do not cut a word in half at the start.
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space - start < 20) start = space + 1;
  }
  const end = Math.min(flat.length, start + width);
  return (start > 0 ? '…' : '') + flat.slice(start, end).trim() + (end < flat.length ? '…' : '');
}

