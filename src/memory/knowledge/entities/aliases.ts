// The normal form of an entity's names. Two names with the same alias key are one name ("Ana's",
// "@ana", "ANA" → `ana`; "The Acme Corp." → `acme corp`; "cairn_db", "cairn-db" → `cairn db`), and
// the slug is what an entity's folder under life/ is called.
import { createHash } from '../../../core/lazy-crypto.js';

/** Articles a name may be written with ("the Acme project", "la Sagrada Familia") that do not name it. */
const LEADING_ARTICLE = /^(?:the|a|an|la|le|les|el|los|las|die|der|das|il|lo|o|os|as)\s+(?=\S)/u;
/** A possessive ending: "Ana's", "Ana’s", "Chris'". */
const POSSESSIVE = /(?:['’]s|(?<=s)['’])$/u;
/** Everything but letters, marks and digits separates words in a key. */
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;
const MAX_KEY = 200;

/**
 * The alias key of a name: NFKC, lower case, no leading @, no possessive, no leading article,
 * punctuation as single spaces. Letters of every script are kept ("小红", "анна"). '' when the name
 * has no letter or digit (the caller drops it).
 */
export function aliasKey(name: string): string {
  let s = name.normalize('NFKC').toLowerCase().trim().replace(/^@+/, '');
  s = s.replace(POSSESSIVE, '');
  s = s.replace(SEPARATORS, ' ').trim();
  // The article goes after punctuation is gone, so "The 'Acme' project" loses it too; a name that is only an article keeps it.
  s = s.replace(LEADING_ARTICLE, '');
  return s.slice(0, MAX_KEY).trim();
}

const MAX_SLUG = 60;
const HASH_CHARS = 8;

/**
 * A file-safe folder name for an entity: ASCII letters, digits and hyphens, at most 60 characters,
 * never '' nor a dot name. Diacritics fold to their letter ("José" → `jose`); a name with letters
 * that do not fold to ASCII (Han, Cyrillic, Arabic…) keeps what ASCII it has and gains a short hash
 * of its alias key, so "小红" and "小明" get different slugs (`entity-3f2a9c1b`, `entity-0b71…`).
 * Uniqueness within a namespace is the store's (it appends `-2`, `-3`).
 */
export function slugify(name: string): string {
  const key = aliasKey(name) || name.normalize('NFKC').trim().toLowerCase();
  const folded = key.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/ß/g, 'ss').replace(/[æ]/g, 'ae').replace(/[øœ]/g, 'o');
  const lost = /[^\x00-\x7f]/.test(folded) || key === '';
  let ascii = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const room = lost ? MAX_SLUG - HASH_CHARS - 1 : MAX_SLUG;
  if (ascii.length > room) ascii = ascii.slice(0, room).replace(/-[^-]*$/, '') || ascii.slice(0, room);
  ascii = ascii.replace(/-+$/, '');
  if (!lost) return ascii || `entity-${hash(name)}`;
  return `${ascii || 'entity'}-${hash(key || name)}`;
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, HASH_CHARS);
}
