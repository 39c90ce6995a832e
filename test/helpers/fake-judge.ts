// Makes a FakeLlmServer act as an LLM judge: reads the judge's prompt out of a recorded request
// (whatever the wire format), and answers with one judgment per numbered turn, decided by a test
// function. Also parses the context and the labelled feedback examples the prompt carries.
import { reply, type FakeReply, type ReceivedRequest } from './fake-llm.js';

export interface PromptTurn {
  index: number;
  timestamp: string;
  /** `Ana (user)` or `user`. */
  who: string;
  text: string;
}

export interface JudgePrompt {
  /** The whole user message. */
  user: string;
  turns: PromptTurn[];
  /** Context lines (`who: text`), oldest first. */
  context: string[];
  examples: Array<{ important: boolean; text: string }>;
}

export interface FakeVerdict {
  importance: number;
  category: string;
  reason?: string;
  statement?: string | null;
}

/** The judge prompt of a recorded chat request (OpenAI, Anthropic or Ollama body). */
export function judgePrompt(req: ReceivedRequest): JudgePrompt {
  const messages: Array<{ role?: string; content?: unknown }> = Array.isArray(req.body?.messages) ? req.body.messages : [];
  const user = messages.filter((m) => m.role === 'user' && typeof m.content === 'string').map((m) => m.content as string).join('\n');
  const turns: PromptTurn[] = [];
  const context: string[] = [];
  const examples: JudgePrompt['examples'] = [];
  let section: 'none' | 'examples' | 'context' | 'turns' = 'none';
  for (const line of user.split('\n')) {
    if (line.startsWith('The user labelled these earlier turns')) section = 'examples';
    else if (line.startsWith('Context (earlier turns')) section = 'context';
    else if (/^Turns to judge \(\d+\):$/.test(line)) section = 'turns';
    else if (section === 'examples' && line.startsWith('- ')) {
      const m = /^- (IMPORTANT|NOT IMPORTANT): (.*)$/.exec(line);
      if (m) examples.push({ important: m[1] === 'IMPORTANT', text: m[2]! });
    } else if (section === 'context' && line.startsWith('- ')) context.push(line.slice(2));
    else if (section === 'turns') {
      const m = /^\[(\d+)\] (\S+) (.*)$/.exec(line);
      if (!m) continue;
      const rest = m[3]!;
      const colon = rest.indexOf(': ');
      turns.push({ index: Number(m[1]), timestamp: m[2]!, who: rest.slice(0, colon), text: rest.slice(colon + 2) });
    }
  }
  return { user, turns, context, examples };
}

/** The JSON text a judge answers for these verdicts. */
export function judgmentsJson(verdicts: ReadonlyArray<FakeVerdict>): string {
  return JSON.stringify({
    judgments: verdicts.map((v, index) => ({
      index,
      importance: v.importance,
      category: v.category,
      reason: v.reason ?? `fake judged ${v.importance}`,
      statement: v.statement ?? null,
    })),
  });
}

/** A `respond` function: one judgment per numbered turn of the request, by `decide`. */
export function judgeWith(decide: (turn: PromptTurn) => FakeVerdict, extra: { usage?: { input: number; output: number }; delayMs?: number } = {}): (req: ReceivedRequest) => FakeReply {
  return (req) => reply.answer(judgmentsJson(judgePrompt(req).turns.map(decide)), extra);
}
