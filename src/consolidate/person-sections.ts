// The person's own text inside files Cairn regenerates (MEMORY.md, topic pages): a section between
// two markers that Cairn carries over as it stands, byte for byte. Everything else in such a file is
// Cairn's and is rewritten. Nothing the person wrote is ever dropped: a section whose markers are
// broken keeps everything from its first begin marker to the end of the file, and a file the
// person wrote before Cairn (no generated marker, no section) is kept whole as their section.

/** The first line of every file Cairn writes (and may therefore rewrite). */
export const GENERATED_MARKER = '<!-- cairn:generated -->';
export const PERSON_BEGIN = '<!-- cairn:person:begin -->';
export const PERSON_END = '<!-- cairn:person:end -->';

/** What a new file's empty section holds, so a person knows where to write. */
export const PERSON_HINT = '<!-- Your own notes go between these two markers: Cairn keeps them as they are when it rewrites this file. -->';

const MALFORMED_NOTE =
  '<!-- cairn: the markers of this section were broken (a begin without an end, two begins, or nested); ' +
  'everything from the first begin marker to the end of the file was kept here as your text, and the extra markers in it were made inert. ' +
  'Tidy it as you like and delete this note. -->';

const ADOPTED_NOTE = '<!-- cairn: this is the file as you wrote it before Cairn generated it; it stays here, untouched, as your section. -->';

/**
 * A marker inside the person's text would end (or restart) the section on the next reading, and
 * that text would grow by the generated part on every rewrite. Such a marker gets a word inside the
 * comment, so it stays visible in the source and means nothing to Cairn.
 */
export function inertMarkers(text: string, markers: readonly string[]): string {
  let out = text;
  for (const m of markers) out = out.split(m).join(m.replace(/ -->$/, ' (inert) -->'));
  return out;
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Whether a file was written by Cairn: its first line is the generated marker (a BOM before it is allowed). */
export function isCairnGenerated(text: string | null): boolean {
  if (text === null) return false;
  const first = text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  return first.trim() === GENERATED_MARKER;
}

/**
 * The person's text of an existing file: what stands between the markers, exactly; null when there
 * is no file or no begin marker. Broken markers (a begin without an end, two begins, a nested pair,
 * an end before the begin) keep everything from just after the first begin marker to the end of the
 * file, led by a note that says so; the extra markers in it are made inert, so the next rewrite
 * reads a well-formed section and the file stops changing.
 */
export function extractPersonSection(existingText: string | null): string | null {
  if (existingText === null) return null;
  const begin = existingText.indexOf(PERSON_BEGIN);
  if (begin === -1) return null;
  const from = begin + PERSON_BEGIN.length;
  const end = existingText.indexOf(PERSON_END, from);
  const wellFormed =
    end !== -1 && count(existingText, PERSON_BEGIN) === 1 && count(existingText, PERSON_END) === 1;
  if (wellFormed) return existingText.slice(from, end);
  const rest = inertMarkers(existingText.slice(from), [PERSON_BEGIN, PERSON_END]);
  return `\n${MALFORMED_NOTE}${rest.startsWith('\n') ? '' : '\n'}${rest}${rest.endsWith('\n') ? '' : '\n'}`;
}

/**
 * The person's text to carry into a regenerated file: the section of a file Cairn wrote (see
 * extractPersonSection), or — for a non-empty file without the generated marker and without a
 * section, which a person wrote by hand — the whole file, led by a note saying where it came from.
 */
export function carriedPersonText(existingText: string | null): string | null {
  if (existingText === null) return null;
  const section = extractPersonSection(existingText);
  if (section !== null) return section;
  if (isCairnGenerated(existingText) || existingText.trim() === '') return null;
  const kept = inertMarkers(existingText, [PERSON_END]);
  return `\n${ADOPTED_NOTE}\n${kept}${kept.endsWith('\n') ? '' : '\n'}`;
}

/** The section as it is written: the markers around the person's text, or around the hint for a new file. */
export function personBlock(personText: string | null): string {
  const inner = personText === null ? `\n${PERSON_HINT}\n` : inertMarkers(personText, [PERSON_BEGIN, PERSON_END]);
  return `${PERSON_BEGIN}${inner}${PERSON_END}`;
}

/** How many lines the section takes in the file. */
export function personBlockLines(personText: string | null): number {
  return count(personBlock(personText), '\n') + 1;
}

/**
 * `generated` with the person's section placed right after its title line (the first `# ` line
 * within the file's first three lines), or at its top when it has no title: people and agents
 * reading from the top meet the person's own notes first. A blank line separates it from the rest.
 */
export function withPersonSection(generated: string, personText: string | null): string {
  const block = personBlock(personText);
  const lines = generated.split('\n');
  const title = lines.slice(0, 3).findIndex((l) => l.startsWith('# '));
  if (title === -1) return `${block}\n\n${generated}`;
  const head = lines.slice(0, title + 1).join('\n');
  const tail = lines.slice(title + 1).join('\n').replace(/^\n+/, '');
  return tail === '' ? `${head}\n\n${block}\n` : `${head}\n\n${block}\n\n${tail}`;
}
