// A rendered file cut into the sections search indexes: one per heading, each with the records its
// lines cite. Read from the file as written, so a person's text in it (their section, a page they
// made) is found by search too, and a section's text is exactly what the file shows under it.
import type { DigestSection, DigestSource } from '../core/types.js';

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CITED = /`([^`\s]+)`/g;

function trimBlankLines(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b).join('\n');
}

/**
 * The sections of `text`: headings outside code fences start one; text before the first heading is
 * a section with heading '' when it holds more than blank lines and HTML comments. A backticked token that is the id
 * of a record in `sources` cites that record.
 */
export function sectionsOf(text: string, sources: ReadonlyMap<string, DigestSource>): DigestSection[] {
  const out: DigestSection[] = [];
  let heading = '';
  let body: string[] = [];
  let cited: DigestSource[] = [];
  let seen = new Set<string>();
  let fence: string | null = null;
  const close = (): void => {
    const sectionText = trimBlankLines(body);
    // The generated marker alone before the title is no section worth indexing.
    const bare = sectionText.replace(/<!--[\s\S]*?-->/g, '').trim();
    if (heading !== '' || bare !== '') out.push({ heading, text: sectionText, sources: cited });
  };
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line);
    if (f) {
      const mark = f[1]!;
      if (fence === null) fence = mark[0]!.repeat(mark.length);
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = null;
    }
    const h = fence === null && !f ? HEADING.exec(line) : null;
    if (h) {
      close();
      heading = h[2]!;
      body = [];
      cited = [];
      seen = new Set();
      continue;
    }
    body.push(line);
    for (const m of line.matchAll(CITED)) {
      const src = sources.get(m[1]!);
      if (src && !seen.has(src.id)) {
        seen.add(src.id);
        cited.push(src);
      }
    }
  }
  close();
  return out;
}
