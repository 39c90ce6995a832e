// Record ids: a kind prefix plus a time-sortable random part, so ids sort by creation and say
// what they name (m_… memory, t_… turn) when they appear in logs or tool output.
import { createHash, nodeCrypto } from './lazy-crypto.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** Characters of an id's time part: 45 bits of milliseconds, enough until the year 3084. */
const TIME_CHARS = 9;
/** Characters of an id's random part: 60 bits, each character from one random byte's low 5 bits. */
const RANDOM_CHARS = 12;

// Random bytes drawn from the OS a pool at a time: one draw per id cost ~25 µs here (a system
// call and OpenSSL's locking for 8 bytes), a tenth of storing a memory in bulk. The bytes are
// the same CSPRNG's (Node batches randomUUID's the same way); each is used once.
const POOL_BYTES = 4096;
let pool: Buffer | undefined;
let poolAt = POOL_BYTES;

function randomChars(count: number): string {
  if (poolAt + count > POOL_BYTES) {
    pool ??= Buffer.alloc(POOL_BYTES);
    nodeCrypto().randomFillSync(pool);
    poolAt = 0;
  }
  let out = '';
  // 256 is a multiple of 32, so a byte's low 5 bits are uniform.
  for (let i = 0; i < count; i++) out += ALPHABET[pool![poolAt++]! & 31];
  return out;
}

/** `ms` in base 32, most significant first, `length` characters (sortable as text). */
function timeChars(ms: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

export function newId(prefix: 'm' | 't' | 'd' | 'x' | 'e' | 'f', now = Date.now()): string {
  if (!Number.isFinite(now)) throw new RangeError(`An id's time must be a finite number of milliseconds, not ${now}`);
  return `${prefix}_${timeChars(Math.max(0, Math.floor(now)), TIME_CHARS)}${randomChars(RANDOM_CHARS)}`;
}

/** Ids accepted from the outside: prefix, underscore, then up to 64 safe characters. */
export const RECORD_ID_PATTERN = /^[a-z]{1,4}_[A-Za-z0-9_-]{1,64}$/;

/** Longest session or message id stored as given (what earlier releases stored unchanged). */
export const MAX_ID_CHARS = 200;
/** Hex digits of the whole id's SHA-256 kept in a folded id: 128 bits, no collision in practice. */
const FOLD_HASH_CHARS = 32;

/**
 * A session or message id from outside (a transcript, a provenance record) as it is stored: ids up
 * to MAX_ID_CHARS unchanged; a longer one becomes its start, `~`, and a hash of the whole id. Two
 * ids that share a long start stay apart (the store deduplicates on them), and the same id always
 * folds the same way, so a re-read still finds what was stored. Never splits a surrogate pair.
 */
export function foldLongId(id: string): string {
  if (id.length <= MAX_ID_CHARS) return id;
  let keep = MAX_ID_CHARS - FOLD_HASH_CHARS - 1;
  const last = id.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return `${id.slice(0, keep)}~${createHash('sha256').update(id).digest('hex').slice(0, FOLD_HASH_CHARS)}`;
}

/**
 * The id of the digest at `path` in `namespace`: `g_` + 128 bits of a hash of both, so a digest
 * keeps its id (and its search entries their ref ids) every time it is regenerated.
 */
export function digestId(namespace: string, path: string): string {
  return `g_${createHash('sha256').update(`${namespace}\0${path}`).digest('hex').slice(0, FOLD_HASH_CHARS)}`;
}
