// How both backends key a text's embedding (embedding cache rows, and since SQLite V17 /
// PostgreSQL step 3 the vector rows that hold a text's own vector): callers hash with sha256 and
// pass 64 hex characters; the store keeps the first 16 bytes of it as binary (32 → 16 bytes per key,
// and the key sits in a row and an index), 128 bits being far past any collision a home could reach.
// Any other string (tests, a caller hashing otherwise) is kept as its UTF-8 bytes, so it stays
// distinct from every hex key and both backends hold the same bytes (cairn migrate copies them).

const HEX_SHA256 = /^[0-9a-f]{64}$/;
/** Bytes of a sha256 kept in a key. */
export const TEXT_HASH_KEY_BYTES = 16;

export function textHashKey(hash: string): Buffer {
  return HEX_SHA256.test(hash) ? Buffer.from(hash.slice(0, TEXT_HASH_KEY_BYTES * 2), 'hex') : Buffer.from(hash, 'utf8');
}

/** A key back as the hashes a caller asked with: key bytes (hex) → the hashes that map to them. */
export function keysOf(hashes: readonly string[]): { keys: Buffer[]; hashesOf: Map<string, string[]> } {
  const hashesOf = new Map<string, string[]>();
  const keys: Buffer[] = [];
  for (const h of new Set(hashes)) {
    const key = textHashKey(h);
    const id = key.toString('hex');
    const list = hashesOf.get(id);
    if (list) list.push(h);
    else {
      hashesOf.set(id, [h]);
      keys.push(key);
    }
  }
  return { keys, hashesOf };
}
