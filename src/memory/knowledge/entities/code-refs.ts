// Names in a coding conversation's shapes: @handles (people), repositories ("owner/repo", GitHub
// and GitLab URLs: projects), file paths (a project's files: topics), and code identifiers
// (camelCase, snake_case, dotted modules, `calls()`: tools). Conservative: a shape has to be
// unmistakable, since "and/or", "km/h", "e.g." and "example.com" are prose.
import type { EntityType } from '../../../core/types.js';

/** A name found at [start, end) of the text. */
export interface Found {
  name: string;
  type: EntityType;
  confidence: number;
  relation?: string;
  start: number;
  end: number;
}

const REPO_URL = /\bhttps?:\/\/(?:www\.)?(?:github|gitlab)\.com\/([A-Za-z0-9][\w.-]{0,38})\/([A-Za-z0-9][\w.-]{0,99})/g;
const OTHER_URL = /\b(?:https?|ftp|file):\/\/[^\s<>"'`)\]]+/g;
const EMAIL = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const HANDLE = /(?<![\w@./])@([A-Za-z][A-Za-z0-9_-]{1,38})(?![\w@])/g;
/** owner/repo: no slash on either side (a path), letters, digits, `.`, `_`, `-`. */
const SLASH_PAIR = /(?<![\w./~-])([A-Za-z0-9][\w.-]{0,38})\/([A-Za-z0-9][\w.-]{0,99})(?![\w/])/g;
/** Words before a pair that make it a repository ("the repo acme/api", "clone foo/bar"). */
const REPO_CONTEXT = /\b(?:repo|repos|repository|repositories|clone|cloned|fork|forked|github|gitlab|pr|pull request|star|starred|npm|package)\s*[:(]?\s*$/i;
/** A path with at least one folder and a file name with an extension, or an absolute path of two folders or more. */
const PATH = /(?<![\w/.@:-])(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/])|(?<![\w/.@:~-])\/(?:[\w.-]+\/){1,}[\w.-]+(?![\w/])/g;
/** Extensions of files people name in conversation. */
const FILE_EXT = /\.(?:ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|sql|json|ya?ml|toml|ini|cfg|conf|env|md|mdx|txt|rst|html|css|scss|vue|svelte|lock|xml|csv|proto|gradle|tf|dockerfile|ipynb)$/i;
const LOWER_CAMEL = /(?<![\w.$/-])[a-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+[A-Z]?(?![\w$/-])/g;
const SNAKE = /(?<![\w.$/-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w$/-])/g;
const DOTTED = /(?<![\w.$/@-])[a-z_][a-z0-9_]*(?:\.[a-z_][A-Za-z0-9_]*)+(?=\(|\b)(?![\w.@/-]*[\w/])/g;
const CALL = /(?<![\w.$])([A-Za-z_$][\w$.]{1,60})\(\)/g;
/** Last parts that make a dotted name a web address or a file, not a module. */
const NOT_MODULE = /\.(?:com|org|net|io|dev|app|ai|co|uk|de|fr|edu|gov|info|me|us|ly|sh|page|site|xyz|html?|js|ts|py|md|json|txt|pdf|png|jpe?g|gif|csv|zip|exe)$/i;
const ABBREVIATION = /^(?:e\.g|i\.e|a\.m|p\.m|u\.s|u\.k|etc|vs|mr|mrs|dr|st|jr|sr)$/i;

/** Every code-shaped name in the text, in order of position. */
export function codeRefs(text: string): Found[] {
  const found: Found[] = [];
  const taken: Array<[number, number]> = [];
  const free = (s: number, e: number): boolean => !taken.some(([a, b]) => s < b && e > a);
  const add = (f: Found): void => {
    if (!free(f.start, f.end)) return;
    taken.push([f.start, f.end]);
    found.push(f);
  };
  const block = (s: number, e: number): void => void taken.push([s, e]);

  for (const m of text.matchAll(REPO_URL)) {
    const repo = m[2]!.replace(/\.git$/, '').replace(/[.]+$/, '');
    add({ name: `${m[1]}/${repo}`, type: 'project', confidence: 0.9, start: m.index, end: m.index + m[0].length });
  }
  // Other addresses and e-mail addresses name no entity here; their parts must not either.
  for (const m of text.matchAll(OTHER_URL)) block(m.index, m.index + m[0].length);
  for (const m of text.matchAll(EMAIL)) block(m.index, m.index + m[0].length);
  for (const m of text.matchAll(HANDLE)) {
    add({ name: `@${m[1]}`, type: 'person', confidence: 0.8, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(PATH)) {
    const path = m[0].replace(/[.]+$/, '');
    if (!FILE_EXT.test(path) && !path.startsWith('/')) continue;
    if (/^\/(?:\w+\/)?\w+$/.test(path) || /^\d+\/\d+/.test(path)) continue;
    add({ name: path, type: 'topic', confidence: 0.55, start: m.index, end: m.index + path.length });
  }
  for (const m of text.matchAll(SLASH_PAIR)) {
    const [owner, repo] = [m[1]!, m[2]!.replace(/[.]+$/, '')];
    if (/^\d+$/.test(owner) || /^\d+$/.test(repo) || owner.length < 2 || repo.length < 2) continue;
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const ticked = text[m.index - 1] === '`';
    const shaped = /[-_\d]/.test(owner + repo) && owner === owner.toLowerCase() && !/[.]/.test(owner);
    if (!(REPO_CONTEXT.test(before) || ticked || shaped)) continue;
    add({ name: `${owner}/${repo}`, type: 'project', confidence: REPO_CONTEXT.test(before) || ticked ? 0.8 : 0.6, start: m.index, end: m.index + owner.length + 1 + repo.length });
  }
  for (const m of text.matchAll(CALL)) {
    const name = m[1]!.replace(/^\.+|\.+$/g, '');
    if (name.length < 2 || ABBREVIATION.test(name)) continue;
    add({ name, type: 'tool', confidence: 0.7, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(LOWER_CAMEL)) {
    if (m[0].length < 5) continue; // "iOS", "eBay" are products, not code.
    add({ name: m[0], type: 'tool', confidence: 0.6, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(SNAKE)) {
    if (m[0].length < 4 || /^_|_$/.test(m[0])) continue;
    add({ name: m[0], type: 'tool', confidence: 0.6, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(DOTTED)) {
    const name = m[0];
    if (NOT_MODULE.test(name) || ABBREVIATION.test(name) || name.split('.').some((p) => p.length < 2)) continue;
    add({ name, type: 'tool', confidence: 0.55, start: m.index, end: m.index + name.length });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The text with these ranges blanked, so later rules do not read names inside a path or a URL again. */
export function blank(text: string, ranges: ReadonlyArray<{ start: number; end: number }>): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    const start = Math.max(at, r.start);
    const end = Math.min(text.length, r.end);
    if (end <= start) continue;
    out += text.slice(at, start) + ' '.repeat(end - start);
    at = end;
  }
  return out + text.slice(at);
}

/** Ranges of URLs and e-mail addresses, which no rule reads names from. */
export function addressRanges(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const m of text.matchAll(OTHER_URL)) out.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(EMAIL)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}
