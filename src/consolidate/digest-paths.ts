// File names of the layers under `<home>/<ns>/` (DESIGN.md "Files a person can read"). The store
// keys digests by these relative paths, so a name here is also a record's identity.
import type { DigestKind } from '../core/types.js';

export const MEMORY_MD = 'MEMORY.md';

export function digestPath(kind: Exclude<DigestKind, 'memory' | 'topic' | 'entity' | 'life'>, key: string): string {
  switch (kind) {
    case 'daily':
      return `daily/${key}.md`;
    case 'night':
      return `daily/${key}-last-night.md`;
    case 'review':
      return `reviews/${key}.md`;
    case 'weekly':
      return `weekly/${key}.md`;
  }
}

export function topicPath(slug: string): string {
  return `topics/${slug}.md`;
}
