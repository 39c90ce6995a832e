// Markdown → search-sized chunks. A chunk is a section (an ATX heading to the next one), or, when a
// section is long, a run of its paragraphs; each keeps its heading trail for context. Chunk text is
// the file's own lines, verbatim, so `startLine..endLine` point exactly at it (a paragraph too
// long for one chunk is cut at word boundaries, and each piece lies within its line).
import { readFrontMatter } from './front-matter.js';

export interface MarkdownChunk {
  /** Heading trail, e.g. `Projects > Staging`; empty before the first heading. */
  heading: string;
  text: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface ChunkOptions {
  /** Target chunk size in characters; a fenced code block longer than this stays whole. */
  maxChars?: number;
}

export const DEFAULT_MAX_CHARS = 1200;

const HEADING = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
// Fences may be indented any amount (inside list items): missing one would let a `#` comment in
// code become a heading, which is worse than treating an odd indented line as a fence.
const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;
// PEM-style armour (keys, signatures) is kept in one piece so redaction sees the whole block.
const ARMOUR_BEGIN = /^\s*-----BEGIN [A-Z0-9 ]+-----/;
const ARMOUR_END = /^\s*-----END [A-Z0-9 ]+-----/;

/** A piece of a chunk: whole lines `from..to` (0-based), or `text` lying within line `from`. */
interface Piece {
  from: number;
  to: number;
  text?: string;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[0]?.startsWith('\uFEFF')) lines[0] = lines[0].slice(1);
  return lines;
}

/** Per line: 0 outside fenced code, else the number of its fenced block (delimiters included). */
function fenceMap(lines: readonly string[], from: number): number[] {
  const fence = new Array<number>(lines.length).fill(0);
  let close: RegExp | null = null;
  let id = 0;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (close) {
      fence[i] = id;
      if (close.test(line)) close = null;
      continue;
    }
    const m = FENCE_OPEN.exec(line);
    if (m) {
      fence[i] = ++id;
      const marker = m[1]!;
      close = new RegExp(`^\\s*\\${marker[0]}{${marker.length},}\\s*$`);
    }
  }
  return fence;
}

function headingText(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  // `## Title ##`: a closing run of #s is decoration when a space (or nothing) comes before it.
  let i = text.length;
  while (i > 0 && text[i - 1] === '#') i--;
  if (i === text.length || (i > 0 && text[i - 1] !== ' ' && text[i - 1] !== '\t')) return text;
  return text.slice(0, i).trim();
}

class Chunker {
  private readonly lines: string[];
  private readonly fence: number[];
  /** offsets[i]: characters before line i, newlines counted, so a span's size is a subtraction. */
  private readonly offsets: number[];

  constructor(
    lines: string[],
    private readonly bodyStart: number,
    private readonly max: number,
  ) {
    this.lines = lines;
    this.fence = fenceMap(lines, bodyStart);
    this.offsets = [0];
    for (const l of lines) this.offsets.push(this.offsets[this.offsets.length - 1]! + l.length + 1);
  }

  private size(from: number, to: number): number {
    return this.offsets[to + 1]! - this.offsets[from]! - 1;
  }

  private blank(i: number): boolean {
    return this.fence[i] === 0 && this.lines[i]!.trim() === '';
  }

  run(): MarkdownChunk[] {
    const out: MarkdownChunk[] = [];
    const trail: Array<{ level: number; text: string }> = [];
    let head: number | null = null;
    let from = this.bodyStart;
    const flush = (to: number) => this.section(trail.map((t) => t.text).filter(Boolean).join(' > '), head, from, to, out);
    for (let i = this.bodyStart; i < this.lines.length; i++) {
      const m = this.fence[i] ? null : HEADING.exec(this.lines[i]!);
      if (!m) continue;
      flush(i);
      const level = m[1]!.length;
      while (trail.length && trail[trail.length - 1]!.level >= level) trail.pop();
      trail.push({ level, text: headingText(m[2]) });
      head = i;
      from = i + 1;
    }
    flush(this.lines.length);
    return out;
  }

  /** Chunks of the section whose content is lines `from..to-1`, under heading line `head`. */
  private section(heading: string, head: number | null, from: number, to: number, out: MarkdownChunk[]): void {
    const blocks = this.blocks(from, to);
    if (blocks.length === 0) return;
    const pieces: Piece[] = [];
    let cur = { ...blocks[0]! };
    for (const b of blocks.slice(1)) {
      if (this.size(cur.from, b.to) <= this.max) cur.to = b.to;
      else {
        this.emit(cur, pieces);
        cur = { ...b };
      }
    }
    this.emit(cur, pieces);
    // The first chunk of a section starts at its heading line, so the excerpt reads as in the file.
    if (head !== null) pieces[0] = this.withHeading(head, pieces[0]!);
    for (const p of pieces) {
      const text = p.text ?? this.lines.slice(p.from, p.to + 1).join('\n');
      if (text.trim() !== '') out.push({ heading, text, startLine: p.from + 1, endLine: p.to + 1 });
    }
  }

  private withHeading(head: number, p: Piece): Piece {
    if (p.text === undefined) return { from: head, to: p.to };
    const before = this.lines.slice(head, p.from).join('\n');
    return { from: head, to: p.to, text: `${before}\n${p.text}` };
  }

  /** Runs of non-blank lines; blank lines inside a fence do not end a run. */
  private blocks(from: number, to: number): Array<{ from: number; to: number }> {
    const out: Array<{ from: number; to: number }> = [];
    let start = -1;
    for (let i = from; i < to; i++) {
      if (this.blank(i)) {
        if (start !== -1) out.push({ from: start, to: i - 1 });
        start = -1;
      } else if (start === -1) start = i;
    }
    if (start !== -1) out.push({ from: start, to: to - 1 });
    return out;
  }

  /** Adds lines `from..to` as one piece, or cut into several when too long. */
  private emit(span: { from: number; to: number }, out: Piece[]): void {
    if (this.size(span.from, span.to) <= this.max) {
      out.push(span);
      return;
    }
    let cur: Piece | null = null;
    for (const unit of this.units(span.from, span.to)) {
      if (cur && this.size(cur.from, unit.to) <= this.max) {
        cur.to = unit.to;
        continue;
      }
      if (cur) out.push(cur);
      cur = null;
      if (unit.from === unit.to && this.fence[unit.from] === 0 && this.size(unit.from, unit.to) > this.max) {
        for (const text of splitWords(this.lines[unit.from]!, this.max)) out.push({ from: unit.from, to: unit.from, text });
      } else cur = { ...unit };
    }
    if (cur) out.push(cur);
  }

  /** Lines, with a fenced block or an armoured block as one unbreakable unit. */
  private units(from: number, to: number): Array<{ from: number; to: number }> {
    const out: Array<{ from: number; to: number }> = [];
    for (let i = from; i <= to; i++) {
      let end = i;
      if (this.fence[i]) {
        while (end < to && this.fence[end + 1] === this.fence[i]) end++;
      } else if (ARMOUR_BEGIN.test(this.lines[i]!)) {
        while (end < to && !ARMOUR_END.test(this.lines[end]!)) end++;
      }
      out.push({ from: i, to: end });
      i = end;
    }
    return out;
  }
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 0x3000 || c === 0xa0;

/**
 * Cuts a line into pieces of at most `max` characters at spaces (mid-word only if it must). Walks
 * indexes, never re-slicing the rest, so a 5 MB single-line note stays linear.
 */
function splitWords(line: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  const end = line.length;
  for (;;) {
    while (start < end && isSpace(line.charCodeAt(start))) start++;
    if (end - start <= max) break;
    let cut = start + max;
    while (cut > start && !isSpace(line.charCodeAt(cut))) cut--;
    if (cut === start) {
      cut = start + max;
      const c = line.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--; // never halve a surrogate pair
    }
    const piece = line.slice(start, cut).trimEnd();
    if (piece) out.push(piece);
    start = cut;
  }
  const rest = line.slice(start).trimEnd();
  if (rest) out.push(rest);
  return out;
}

/**
 * Splits Markdown into chunks: by ATX headings (with their trail), then by paragraphs packed up to
 * `maxChars`; fenced code is never split, front matter is not content (its title and tags lead the
 * first chunk's heading), and empty sections give no chunk. CRLF and a BOM are accepted.
 */
export function chunkMarkdown(text: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const max = Math.max(1, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
  const lines = splitLines(text);
  const meta = readFrontMatter(lines);
  const chunks = new Chunker(lines, meta.bodyStart, max).run();
  const label = [meta.title, ...meta.tags.map((t) => `#${t}`)].filter(Boolean).join(' ');
  const first = chunks[0];
  if (first && label) {
    // A note whose first heading repeats its title needs the title only once.
    const top = first.heading.split(' > ')[0]!;
    const repeats = meta.title !== '' && top.toLowerCase() === meta.title.toLowerCase();
    const prefix = repeats ? meta.tags.map((t) => `#${t}`).join(' ') : label;
    if (prefix) first.heading = first.heading ? `${prefix} > ${first.heading}` : prefix;
  }
  return chunks;
}
