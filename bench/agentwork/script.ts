// The small language the agent-work scenarios are written in: a project is sessions of steps
// (the person's messages, the assistant's messages with the tool calls it makes, each call with
// the output it got back), and questions that name the steps holding their answer by a key.
// generate.ts turns this into Claude Code JSONL lines with ids and times.

export type Category = 'decision' | 'root-cause' | 'config-value' | 'command' | 'location' | 'preference' | 'temporal' | 'multi-hop' | 'changed-value';

export interface ToolCall {
  name: 'Read' | 'Edit' | 'Write' | 'Bash' | 'Grep' | 'Glob';
  input: Record<string, unknown>;
  output: string;
  isError?: boolean;
  /** Set when a question's answer is in this call's output: the evidence is the result's turn. */
  key?: string;
}

export type Step =
  | { who: 'user'; text: string; key?: string }
  | { who: 'assistant'; text: string; tools?: ToolCall[]; key?: string };

export interface Session {
  /** Days after the project's start. */
  day: number;
  /** Hour of day (UTC) the session starts. */
  hour: number;
  branch?: string;
  steps: Step[];
}

export interface QuestionSpec {
  question: string;
  category: Category;
  /** Step or tool keys whose turns hold the answer. */
  evidence: string[];
  answer: string;
  /** Literal strings the evidence must contain as captured (a check that redaction or excerpting kept them). */
  find: string[];
}

/** What routine sessions (routine.ts) draw on for a project: its files, commands and typical output. */
export interface RoutinePool {
  files: Array<{ path: string; body: string }>;
  testCommand: string;
  testPass: string;
  testFail: Array<{ output: string; fix: string; file: string; before: string; after: string }>;
  lint: { command: string; output: string };
  chores: string[];
}

export interface Project {
  id: string;
  person: string;
  cwd: string;
  /** ISO date of the first session. */
  start: string;
  sessions: Session[];
  questions: QuestionSpec[];
  routine: RoutinePool;
}

export const u = (text: string, key?: string): Step => ({ who: 'user', text, key });
export const a = (text: string, tools?: ToolCall[], key?: string): Step => ({ who: 'assistant', text, tools, key });

export const read = (path: string, output: string, key?: string): ToolCall => ({ name: 'Read', input: { file_path: path }, output: numbered(output), key });
export const bash = (command: string, output: string, opts: { error?: boolean; key?: string; description?: string } = {}): ToolCall => ({
  name: 'Bash',
  input: opts.description ? { command, description: opts.description } : { command },
  output,
  isError: opts.error,
  key: opts.key,
});
export const grep = (pattern: string, output: string, key?: string, path?: string): ToolCall => ({ name: 'Grep', input: path ? { pattern, path } : { pattern }, output, key });
export const glob = (pattern: string, output: string): ToolCall => ({ name: 'Glob', input: { pattern }, output });
export const edit = (path: string, oldString: string, newString: string): ToolCall => ({
  name: 'Edit',
  input: { file_path: path, old_string: oldString, new_string: newString },
  output: `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(newString)}`,
});
export const write = (path: string, content: string): ToolCall => ({ name: 'Write', input: { file_path: path, content }, output: `File created successfully at: ${path}` });

/** File text as Claude Code's Read returns it: numbered lines. */
export function numbered(text: string): string {
  return text
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\u2192${line}`)
    .join('\n');
}

/** A fenced code block. */
export const code = (lang: string, body: string) => '```' + lang + '\n' + body.trim() + '\n```';

/** Paragraphs joined with blank lines (empty ones dropped). */
export const para = (...parts: string[]) => parts.filter((p) => p.trim() !== '').join('\n\n');
