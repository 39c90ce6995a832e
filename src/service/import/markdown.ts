// An OpenClaw workspace as memories: `MEMORY.md` and `memory/*.md` are lists of things the agent
// chose to remember, so each top-level list item (with what is nested under it) and each paragraph
// becomes one memory, with its file, line range and heading trail. Headings, rules, comments and
// front matter are structure, not memories.
import { readFile, stat } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import { readFrontMatter } from '../../capture/markdown/front-matter.js';

export interface MarkdownItem {
  text: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Headings above the item, outermost first. */
  headings: string[];
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const FENCE = /^ *(`{3,}|~{3,})/;
const COMMENT_OPEN = /^ {0,3}<!--/;

const blank = (line: string) => line.trim() === '';

/** The items of one Markdown text, in order. */
export function markdownItems(content: string): MarkdownItem[] {
  const lines = content.replace(/^\uFEFF/, '').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const items: MarkdownItem[] = [];
  const headings: string[] = [];
  let i = readFrontMatter(lines).bodyStart;
  const push = (from: number, to: number, text: string) => {
    const trimmed = text.trim();
    if (trimmed !== '') items.push({ text: trimmed, startLine: from + 1, endLine: to + 1, headings: [...headings] });
  };
  const setHeading = (level: number, title: string) => {
    headings.length = Math.min(headings.length, level - 1);
    while (headings.length < level - 1) headings.push('');
    headings.push(title);
  };
  /** The end (exclusive) of a fenced block opening at `from`. */
  const fenceEnd = (from: number): number => {
    const marker = FENCE.exec(lines[from]!)![1]!;
    const close = new RegExp(`^ *\\${marker[0]}{${marker.length},}[ \\t]*$`);
    let j = from + 1;
    while (j < lines.length && !close.test(lines[j]!)) j++;
    return Math.min(j + 1, lines.length);
  };
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line) || RULE.test(line)) {
      i++;
      continue;
    }
    if (COMMENT_OPEN.test(line)) {
      while (i < lines.length && !lines[i]!.includes('-->')) i++;
      i++;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      setHeading(atx[1]!.length, (atx[2] ?? '').trim());
      i++;
      continue;
    }
    if (FENCE.test(line)) {
      const end = fenceEnd(i);
      push(i, end - 1, lines.slice(i, end).join('\n'));
      i = end;
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      // The item runs while lines are indented under it, lazy continuations of its text, or
      // blank lines followed by indented ones.
      const indent = item[1]!.length;
      let end = i + 1;
      while (end < lines.length) {
        const next = lines[end]!;
        if (blank(next)) {
          let k = end;
          while (k < lines.length && blank(lines[k]!)) k++;
          if (k < lines.length && lines[k]!.length - lines[k]!.trimStart().length > indent) {
            end = k;
            continue;
          }
          break;
        }
        const nextIndent = next.length - next.trimStart().length;
        if (nextIndent > indent) {
          end = FENCE.test(next) ? fenceEnd(end) : end + 1;
          continue;
        }
        if (ITEM.test(next) || ATX.test(next) || RULE.test(next) || FENCE.test(next) || blank(lines[end - 1]!)) break;
        end++; // a lazy continuation line
      }
      // Lines under the item lose the indent of its text (`- `, `1. `, `10) `…).
      const textAt = item[3] ? line.length - item[3].length : indent + item[2]!.length + 1;
      const body = [item[3] ?? '', ...lines.slice(i + 1, end).map((l) => l.slice(Math.min(textAt, l.length - l.trimStart().length)))];
      push(i, end - 1, body.join('\n'));
      i = end;
      continue;
    }
    // A paragraph: up to a blank line or a line that starts something else.
    let end = i + 1;
    while (end < lines.length && !blank(lines[end]!) && !ATX.test(lines[end]!) && !FENCE.test(lines[end]!) && !ITEM.test(lines[end]!)) {
      if (SETEXT.test(lines[end]!)) break;
      end++;
    }
    if (end < lines.length && SETEXT.test(lines[end]!) && end === i + 1) {
      setHeading(lines[end]!.trim().startsWith('=') ? 1 : 2, line.trim());
      i = end + 1;
      continue;
    }
    push(i, end - 1, lines.slice(i, end).join('\n'));
    i = end;
  }
  return items;
}

/** `memory/YYYY-MM-DD.md` and `memory/YYYY-MM-DD-<slug>.md` were written that day. */
const DAILY = /^(\d{4}-\d{2}-\d{2})(?:-.*)?\.(?:md|markdown)$/i;

export interface WorkspaceFile {
  path: string;
  /** Relative to the workspace (what a later import of the same workspace recognises). */
  name: string;
  items: MarkdownItem[];
  lines: number;
  /** When its notes were written: the day a daily log names, else the file's modification time. */
  writtenAt: string;
}

/** Reads one workspace file into items. */
export async function readWorkspaceFile(path: string, root: string): Promise<WorkspaceFile> {
  const [content, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  const day = DAILY.exec(basename(path))?.[1];
  // Noon UTC: the same calendar day in every time zone from UTC-11 to UTC+11.
  const dated = day && !Number.isNaN(Date.parse(`${day}T12:00:00.000Z`)) ? `${day}T12:00:00.000Z` : null;
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return { path, name: relative(root, path) || basename(path), items: markdownItems(content), lines, writtenAt: dated ?? info.mtime.toISOString() };
}
