// Record ids: a kind prefix plus a time-sortable random part, so ids sort by creation and say
// what they name (m_… memory, t_… turn) when they appear in logs or tool output.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function newId(prefix: 'm' | 't' | 'd' | 'x', now = Date.now()): string {
  const time = encode(BigInt(now), 9);
  const rand = encode(BigInt('0x' + randomBytes(8).toString('hex')), 12);
  return `${prefix}_${time}${rand}`;
}

/** Ids accepted from the outside: prefix, underscore, then up to 64 safe characters. */
export const RECORD_ID_PATTERN = /^[a-z]{1,4}_[A-Za-z0-9_-]{1,64}$/;
