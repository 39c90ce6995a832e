// Claude Code writes more than what the person typed into `user` lines: slash command wrappers,
// local command output, interruption notices, system reminders. This file reduces a user line's
// text to what is worth a turn, so the parser itself only deals with line structure.
import { removeTagged } from '../clean.js';

/** Text between the first `open` and the next `close`, or null (linear time, no regex). */
function between(text: string, open: string, close: string): string | null {
  const start = text.indexOf(open);
  if (start < 0) return null;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? null : text.slice(start + open.length, end);
}

const INTERRUPTED = /^\[Request interrupted by user(?: for tool use)?\]$/;
const LOCAL_OUTPUT = ['<local-command-stdout>', '<local-command-stderr>', '<local-command-caveat>'];

/**
 * What a user line's text says, or '' when it is protocol noise:
 * - a slash command (`<command-name>/compact</command-name><command-args>keep the API</command-args>`)
 *   becomes the short turn `/compact keep the API`: the person did ask for it, and the arguments
 *   can carry intent;
 * - local command output, the local-command caveat and "[Request interrupted by user]" are noise;
 * - `<system-reminder>` blocks injected into user text are removed.
 */
export function userText(raw: string): string {
  const text = raw.trim();
  if (INTERRUPTED.test(text)) return '';
  if (LOCAL_OUTPUT.some((tag) => text.startsWith(tag))) return '';
  const name = between(text, '<command-name>', '</command-name>');
  if (name !== null && name.length <= 200) {
    const command = name.trim().startsWith('/') ? name.trim() : `/${name.trim()}`;
    const args = (between(text, '<command-args>', '</command-args>') ?? '').trim();
    return args ? `${command} ${args}` : command;
  }
  return removeTagged(text, '<system-reminder>', '</system-reminder>');
}
