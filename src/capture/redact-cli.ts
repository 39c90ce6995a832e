// Passwords on command lines: `mysql -pS3cret`, `sshpass -p …`, `docker login -p …`,
// `curl -u user:…`, `--password …` and the like. Each tool has its own way to take a password, so
// this is a table: a command, the option that carries the password, then the value (quoted or
// bare). `--name value` options are judged by their name, except for the tools whose
// `--password` only asks for one (mysql, psql), where the next word is something else.
//
// The scan starts from options, not commands: a dash is rare in prose and the engine skips to it,
// while command names are ordinary words. For each option the command of its segment (line, or
// part of a pipeline) is looked up once, and only that command's rules run, on that segment.
import type { Span } from './redact-kinds.js';
import { classifySecretName, isCredentialShaped, isPathOrUrl, isPlaceholder, isReference } from './redact-values.js';

/**
 * A value: 'single-quoted', "double-quoted", \"quoted in JSON-escaped text\", or bare up to a
 * shell metacharacter or a backslash. Groups 1–4.
 */
const VALUE = `(?:'([^'\\n]{1,256})'|"([^"\\n]{1,256})"|\\\\"([^"\\\\\\n]{1,256})\\\\"|([^\\s'"|;&<>\\\\]{1,256}))`;
/** Longest command segment read, before and after an option. */
const MAX_SEGMENT = 600;

/** Rules by command: patterns run on the command's segment, value in groups 1–3. */
const OPTION_RULES: ReadonlyArray<readonly [commands: string, pattern: string]> = [
  // mysql's `-p` takes its value glued: in `-p secret`, "secret" is the database.
  ['mysql mysqldump mysqladmin mysqlimport mysqlcheck mysqlshow mysqlsh mysqlbinlog mariadb mariadb-dump mariadb-admin', `\\s-p${VALUE}`],
  ['sshpass', `\\s-p[ \\t]*${VALUE}`],
  ['docker podman buildah skopeo nerdctl oras crane', `^\\S*[ \\t]+login\\b.*?\\s(?:-p|--password)(?:[ \\t]+|=)${VALUE}`],
  ['helm regctl', `^\\S*[ \\t]+registry[ \\t]+login\\b.*?\\s(?:-p|--password)(?:[ \\t]+|=)${VALUE}`],
  ['redis-cli', `\\s(?:-a|--pass)[ \\t]+${VALUE}`],
  ['sqlcmd bcp osql isql', `\\s-P[ \\t]*${VALUE}`],
  ['ldapsearch ldapadd ldapmodify ldapdelete ldapwhoami ldappasswd ldapcompare ldapmodrdn ldapexop', `\\s-w[ \\t]+${VALUE}`],
  ['zip unzip zipcloak', `\\s-P[ \\t]+${VALUE}`],
  ['7z 7za 7zz 7zr rar unrar', `\\s-p${VALUE}`],
  ['keytool jarsigner', `\\s-(?:storepass|keypass|srcstorepass|srckeypass|deststorepass|destkeypass|new)[ \\t]+${VALUE}`],
  ['openssl', `\\s-(?:pass|passin|passout|kpass)[ \\t]+pass:${VALUE}`],
  ['openssl', `\\s-k[ \\t]+${VALUE}`],
  ['mongo mongosh mongodump mongorestore mongoimport mongoexport mongostat mongotop', `\\s-p[ \\t]+${VALUE}`],
  ['ssh-keygen', `\\s-[NP][ \\t]+${VALUE}`],
  ['htpasswd', `^\\S*[ \\t]+-[A-Za-z]*b[A-Za-z]*(?:[ \\t]+-[A-Za-z]+)*[ \\t]+\\S+[ \\t]+\\S+[ \\t]+${VALUE}`],
  // `-u user:password` (curl, wget): the part after the colon.
  ['curl wget', `\\s(?:-u|--user)(?:[ \\t]+|=)(?:'[^':\\n]{1,128}:([^'\\n]{1,256})'|"[^":\\n]{1,128}:([^"\\n]{1,256})"|[^\\s:'"]{1,128}:([^\\s'"|;&<>]{1,256}))`],
  // `-U user%password` (smbclient and friends).
  ['smbclient rpcclient smbmap smbget', `\\s(?:-U|--user)(?:[ \\t]+|=)['"]?[^\\s%'"]{1,128}%${VALUE}`],
];

const RULES_BY_COMMAND = new Map<string, RegExp[]>();
for (const [commands, pattern] of OPTION_RULES) {
  const re = new RegExp(pattern, 'dg');
  for (const command of commands.split(' ')) RULES_BY_COMMAND.set(command, [...(RULES_BY_COMMAND.get(command) ?? []), re]);
}

/** Commands that take a password with no option before it; found by their literal name. */
const PLAIN_RULES: ReadonlyArray<readonly [needle: string, pattern: RegExp]> = [
  ['nmcli', new RegExp(`\\bnmcli\\b[^\\n|;&]{0,300}?\\s(?:password|wifi-sec\\.psk|802-11-wireless-security\\.psk)[ \\t]+${VALUE}`, 'dg')],
  ['wpa_passphrase', new RegExp(`\\bwpa_passphrase[ \\t]+(?:'[^'\\n]*'|"[^"\\n]*"|\\S+)[ \\t]+${VALUE}`, 'dg')],
  ['net user', new RegExp(`\\bnet[ \\t]+user[ \\t]+(?:"[^"\\n]*"|[^\\s/"]\\S*)[ \\t]+(?![/*])${VALUE}`, 'dg')],
  ['net use', new RegExp(`\\bnet[ \\t]+use\\b[^\\n|;&]{0,200}?[ \\t]/user:\\S+[ \\t]+(?![/*])${VALUE}`, 'dg')],
  // A password piped into a tool that reads it from stdin.
  ['|', new RegExp(`\\becho(?:[ \\t]+-[neE]+)*[ \\t]+${VALUE}[ \\t]*\\|[ \\t]*(?:sudo\\b[^\\n|]{0,80}?[ \\t]-S\\b|[^\\n|]{0,200}?--password-stdin\\b|chpasswd\\b|passwd\\b)`, 'dg')],
];

/** An option: one or two dashes and a letter; what stands before it is checked in code. */
const OPTION = /-{1,2}[A-Za-z]/g;
/**
 * `--name value` (or `-name value`) where the name names a secret. Group 1 is the name. The dash
 * comes first so the engine skips to it.
 */
const LONG_OPTION = /--?([A-Za-z][A-Za-z0-9-]{3,40})[ \t]+(?:'([^'\n]{1,256})'|"([^"\n]{1,256})"|\\"([^"\\\n]{1,256})\\"|(?!-)([^\s'"|;&<>\\]{1,256}))/dg;
/** Tools whose `--password` takes no value (it makes them ask), so the next word is not one. */
const PROMPTING = /^(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb|psql|pg_dump|pg_dumpall|pg_restore|createdb|dropdb|createuser|dropuser|vacuumdb|reindexdb|clusterdb|pg_basebackup|pgbench|pg_isready)$/;

/** `i` ends a command segment: a newline (real or written out as `\n`), a pipe, `;` or `&`. */
function isSegmentEnd(text: string, i: number): boolean {
  const c = text[i];
  return c === '\n' || c === '|' || c === ';' || c === '&' || (c === '\\' && text[i + 1] === 'n');
}

/**
 * The command word of the segment `at` is in: past `sudo`, `env`, `VAR=x` and a `$ ` prompt, and
 * past what a quote glued to it opens (`"content":"mysql` in a JSON line shown as text).
 */
function commandAt(text: string, at: number): { name: string; start: number } {
  let i = at;
  while (i > 0 && at - i < MAX_SEGMENT && !isSegmentEnd(text, i - 1) && !(text[i - 1] === 'n' && text[i - 2] === '\\')) i--;
  const words = /\S+/g;
  words.lastIndex = i;
  for (let w = words.exec(text); w !== null && w.index < at; w = words.exec(text)) {
    const word = w[0].replace(/^.*["'`(]/, '');
    if (word === '' || word === 'sudo' || word === 'env' || word === '$' || word === '#' || word === '>' || word === 'PS>' || /^[A-Za-z_]\w*=/.test(word)) continue;
    if (word.startsWith('-')) continue; // sudo's own options
    return { name: word.replace(/^.*\//, ''), start: w.index + w[0].length - word.length };
  }
  return { name: '', start: at };
}

function segmentEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && i - from < MAX_SEGMENT && text[i] !== '\n' && !(text[i] === '\\' && text[i + 1] === 'n')) i++;
  return i;
}

function valueOf(m: RegExpMatchArray, first: number): { start: number; end: number } | null {
  for (let g = first; g < first + 4; g++) {
    const range = m.indices?.[g];
    if (range !== undefined) return { start: range[0], end: range[1] };
  }
  return null;
}

function isPasswordArg(value: string): boolean {
  return value.length > 0 && !value.startsWith('[REDACTED:') && !isReference(value) && !isPlaceholder(value);
}

function pushValue(m: RegExpMatchArray, offset: number, text: string, out: Span[]): void {
  const v = valueOf(m, 1);
  if (v !== null && isPasswordArg(text.slice(offset + v.start, offset + v.end))) {
    out.push({ start: offset + v.start, end: offset + v.end, kind: 'password' });
  }
}

function findOptionPasswords(text: string, out: Span[]): void {
  const done = new Set<number>();
  for (const m of text.matchAll(OPTION)) {
    const before = text[m.index - 1];
    if (before !== ' ' && before !== '\t') continue;
    const command = commandAt(text, m.index);
    const rules = RULES_BY_COMMAND.get(command.name);
    if (rules === undefined || done.has(command.start)) continue;
    done.add(command.start);
    const segment = text.slice(command.start, segmentEnd(text, m.index));
    for (const rule of rules) for (const r of segment.matchAll(rule)) pushValue(r, command.start, text, out);
  }
}

function findLongOptions(text: string, out: Span[]): void {
  for (const m of text.matchAll(LONG_OPTION)) {
    const before = text[m.index - 1];
    if (before !== undefined && !/[\s'"=(]/.test(before)) continue; // inside a word or a longer dash run
    const name = m[1]!;
    const secretName = classifySecretName(name);
    if (secretName === null) continue;
    const v = valueOf(m, 2);
    if (v === null) continue;
    const value = text.slice(v.start, v.end);
    if (!isPasswordArg(value) || isPathOrUrl(value) || value.startsWith('-')) continue;
    const passwordLike = /pass|pwd|psk/i.test(name);
    if (passwordLike && PROMPTING.test(commandAt(text, m.index).name)) continue;
    const ok = secretName.strength === 'strong' ? value.length >= 3 : isCredentialShaped(value);
    if (ok) out.push({ start: v.start, end: v.end, kind: passwordLike ? 'password' : 'env-secret' });
  }
}

/** Passwords given to command-line tools. */
export function findCommandLineSecrets(text: string, out: Span[]): void {
  findOptionPasswords(text, out);
  for (const [needle, pattern] of PLAIN_RULES) {
    if (!text.includes(needle)) continue;
    for (const m of text.matchAll(pattern)) pushValue(m, 0, text, out);
  }
  findLongOptions(text, out);
}
