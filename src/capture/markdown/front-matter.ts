// YAML front matter (a leading `---` block) is metadata, not prose. Only `title` and `tags` are
// read, with a line-based reader: the chunker needs two strings, not a YAML parser.

export interface FrontMatter {
  /** Index of the first line after the block (0 when there is none). */
  bodyStart: number;
  title: string;
  tags: string[];
}

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
/** What a line of a YAML mapping looks like: a key, an indented or list line, or a comment. */
const YAML_LINE = /^(?:[A-Za-z0-9_][\w .-]*:(?:\s|$)|\s|-\s|-$|#)/;

function unquote(value: string): string {
  const v = value.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1).trim() : v;
}

function tagList(raw: string): string[] {
  const v = raw.trim().replace(/^\[(.*)\]$/, '$1');
  return v
    .split(v.includes(',') ? ',' : /\s+/)
    .map((t) => unquote(t).replace(/^#/, ''))
    .filter(Boolean);
}

/**
 * A leading `---` … `---` (or `...`) block whose lines look like YAML. A file that merely opens with
 * a thematic break and has another one later is prose, so non-YAML content means no front matter.
 */
export function readFrontMatter(lines: readonly string[]): FrontMatter {
  const none: FrontMatter = { bodyStart: 0, title: '', tags: [] };
  if (lines.length < 2 || !FENCE.test(lines[0]!)) return none;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i]!)) {
      close = i;
      break;
    }
    if (lines[i]!.trim() !== '' && !YAML_LINE.test(lines[i]!)) return none;
  }
  if (close === -1) return none;
  const meta: FrontMatter = { bodyStart: close + 1, title: '', tags: [] };
  for (let i = 1; i < close; i++) {
    const m = /^(title|tags?)\s*:\s*(.*)$/i.exec(lines[i]!);
    if (!m) continue;
    if (m[1]!.toLowerCase() === 'title') {
      meta.title = unquote(m[2]!);
    } else if (m[2]!.trim() !== '') {
      meta.tags = tagList(m[2]!);
    } else {
      // Block list form: `tags:` then `  - a` lines.
      for (let j = i + 1; j < close; j++) {
        const item = /^\s*-\s+(.*)$/.exec(lines[j]!);
        if (!item) break;
        meta.tags.push(...tagList(item[1]!));
      }
    }
  }
  return meta;
}
