// Record ids: a kind prefix plus a time-sortable random part, so ids sort by creation and say
// what they name (m_… memory, t_… turn) when they appear in logs or tool output.
import { createHash, randomBytes } from './lazy-crypto.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function newId(prefix: 'm' | 't' | 'd' | 'x' | 'e' | 'f', now = Date.now()): string {
  const time = encode(BigInt(now), 9);
  const rand = encode(BigInt('0x' + randomBytes(8).toString('hex')), 12);
  return `${prefix}_${time}${rand}`;
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
