// Deterministic generator of an agent's history for the consolidation bench: `days` days of about
// 100 turns each (generic JSONL: `{role, content, timestamp, id, session}`), as a person working
// with an agent would leave them. A working day holds a few sessions, each one kind of work on a
// project (coding, ops, research, chat), from 08:00 into the evening; on some days a session runs
// on past 22:00 into the night window (the night belongs to the day it started). A heartbeat
// session polls every couple of hours and is answered HEARTBEAT_OK; acknowledgements ("ok",
// "thanks") sit between the real turns. Projects recur for weeks (so topics form), decisions about
// them change later (superseded), and about one day in twenty is in German or Japanese.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Rng } from './corpus.js';

export interface HistoryOptions {
  days: number;
  /** Local calendar day the history starts on (YYYY-MM-DD). */
  start: string;
  timeZone: string;
  seed: number;
  turnsPerDay?: number;
}

export interface HistoryStats {
  days: number;
  turns: number;
  bytes: number;
  nightTurns: number;
  noiseTurns: number;
  decisions: number;
  foreignDays: number;
  byActivity: Record<string, number>;
}

type Activity = 'coding' | 'ops' | 'research' | 'chat';
type Lang = 'en' | 'de' | 'ja';
interface Line {
  role: 'user' | 'assistant' | 'tool';
  content: string;
}

const PROJECTS = ['Project Phoenix', 'billing-service', 'Kestrel Dashboard', 'ingest pipeline', 'Atlas Migration', 'search ranking', 'mobile app', 'Heron API'];
const FILES = ['src/router.ts', 'src/billing/invoice.ts', 'lib/retry.py', 'cmd/server/main.go', 'src/auth/session.ts', 'scripts/migrate.sql', 'web/Chart.tsx', 'src/queue/worker.ts'];
const FUNCS = ['parseInvoice', 'retryWithBackoff', 'renderChart', 'loadSession', 'scheduleJob', 'mergeRanges', 'normaliseQuery', 'flushQueue'];
const ERRORS = ['TypeError', 'RangeError', 'TimeoutError', 'ConnectionResetError', 'KeyError', 'ValidationError'];
const CONDS = ['the list is empty', 'the token expired', 'two requests race', 'the date crosses midnight', 'the payload is over 1 MB', 'the locale is de-DE'];
const HOSTS = ['staging', 'production', 'the build box', 'the eu-west cluster'];
const TECH: Array<[string, string]> = [['Postgres', 'SQLite'], ['Redis', 'Memcached'], ['gRPC', 'REST'], ['Kafka', 'NATS'], ['BM25', 'dense retrieval'], ['React', 'Svelte']];
const PEOPLE = ['Ana', 'Bruno', 'Chen', 'Dara', 'Eli'];
const PLACES = ['the Black Forest', 'Lake Constance', 'the Harz', 'the Baltic coast'];
const ACKS = ['ok', 'thanks', 'ok thanks', 'sounds good', 'go ahead', 'yes', 'perfect', '👍', 'nice', 'great, thanks'];
const HEARTBEAT_PROMPT = 'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. If nothing needs attention, reply HEARTBEAT_OK.';

/** A decision about a project that changes now and then: what it is, and its value at a given revision. */
const DECISIONS: Array<(p: string, v: number) => string> = [
  (p, v) => `We decided to move the ${p} staging database to port ${5400 + v * 11} because the old port clashes with the legacy cluster.`,
  (p, v) => `We decided to run the ${p} nightly export at 0${1 + (v % 5)}:30 instead of midnight, so it no longer overlaps the backups.`,
  (p, v) => `Decision: ${p} keeps ${v % 2 === 0 ? 'Postgres 16' : 'Postgres 17'} for now and the connection pool stays at ${10 + v * 5} connections.`,
  (p, v) => `We agreed that ${p} releases go out every ${v % 2 === 0 ? 'Tuesday' : 'Thursday'} with a one-line changelog per change.`,
];

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(items.length)]!;
}

/** Local wall time in a time zone → UTC epoch ms (two passes settle the offset, DST included). */
export function zonedToUtc(day: string, minutes: number, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  const offsetAt = (t: number): number => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - Math.floor(t / 60_000) * 60_000;
  };
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return t;
}

export function addDay(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

class Writer {
  private readonly rng: Rng;
  /** Revision of each (project, decision) pair: bumped when the decision changes. */
  private readonly revisions = new Map<string, number>();
  decisions = 0;
  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  exchange(activity: Activity, project: string, lang: Lang): Line[] {
    const r = this.rng;
    if (lang !== 'en') return this.foreign(activity, project, lang);
    // About one exchange in eight states (or changes) a decision on the project.
    if (activity !== 'chat' && r.next() < 0.12) {
      const which = r.int(DECISIONS.length);
      const key = `${project}|${which}`;
      const rev = (this.revisions.get(key) ?? 0) + (this.revisions.has(key) && r.next() < 0.5 ? 1 : 0);
      this.revisions.set(key, rev);
      this.decisions++;
      return [{ role: 'user', content: DECISIONS[which]!(project, rev) }, { role: 'assistant', content: `Noted: I updated the ${project} runbook with the new decision.` }];
    }
    const file = pick(r, FILES);
    const fn = pick(r, FUNCS);
    switch (activity) {
      case 'coding':
        return pick(r, [
          (): Line[] => [
            { role: 'user', content: `The ${project} tests fail in ${file} with ${pick(r, ERRORS)} when ${pick(r, CONDS)}. Can you look?` },
            { role: 'tool', content: `FAIL ${file}\n  ● ${fn} › handles edge case\n    ${pick(r, ERRORS)}: expected ${r.int(100)} to equal ${r.int(100)}\n      at ${fn} (${file}:${10 + r.int(300)}:${1 + r.int(40)})` },
            { role: 'assistant', content: `Found it: ${fn}() in ${file} did not handle the case when ${pick(r, CONDS)}. Fixed it and added a unit test; all ${40 + r.int(300)} tests pass now.` },
          ],
          (): Line[] => [
            { role: 'user', content: `Refactor ${fn} in ${file} so it takes an options object instead of ${2 + r.int(4)} positional arguments.` },
            { role: 'assistant', content: `Refactored ${fn}() in ${file} for ${project}; committed as ${r.int(0xfffffff).toString(16)} on branch feat/${fn.toLowerCase()} and opened a pull request.` },
          ],
          (): Line[] => [
            { role: 'user', content: `Implement retry with exponential backoff in ${file} for the ${project} webhook client.` },
            { role: 'assistant', content: `Implemented retryWithBackoff() with ${3 + r.int(5)} attempts and jitter in ${file}; the typecheck and the test suite pass.` },
          ],
        ])();
      case 'ops':
        return pick(r, [
          (): Line[] => [{ role: 'assistant', content: `Deployed ${project} v${1 + r.int(4)}.${r.int(20)}.${r.int(10)} to ${pick(r, HOSTS)}; the health check on port ${8000 + r.int(100)} is green and error rates are flat.` }],
          (): Line[] => [
            { role: 'user', content: `The nightly backup cron for ${project} failed again with a permission error on /var/backups/${project.toLowerCase().replace(/\s+/g, '-')}.` },
            { role: 'assistant', content: `Fixed the backup: the directory belonged to root after the last restore; changed the owner to the backup user and re-ran the job, ${1 + r.int(40)} GB copied.` },
          ],
          (): Line[] => [{ role: 'assistant', content: `Renewed the TLS certificate for ${project.toLowerCase().replace(/\s+/g, '')}.example.com and restarted nginx on ${pick(r, HOSTS)}; the certificate is valid for 90 days.` }],
          (): Line[] => [{ role: 'user', content: `Disk usage on ${pick(r, HOSTS)} is at ${80 + r.int(19)}%; the ${project} logs are not rotated. Please set up logrotate with ${7 + r.int(20)} days of retention.` }],
        ])();
      case 'research': {
        const [a, b] = pick(r, TECH);
        return pick(r, [
          (): Line[] => [
            { role: 'user', content: `Compare ${a} and ${b} for ${project}: which one handles our load better?` },
            { role: 'assistant', content: `I compared ${a} versus ${b} for ${project}: ${a} was ${5 + r.int(60)}% faster in our benchmark, ${b} has the better documentation. The trade-off favours ${r.next() < 0.5 ? a : b} for now.` },
          ],
          (): Line[] => [{ role: 'assistant', content: `I read the paper on ${a} at https://arxiv.org/abs/24${10 + r.int(2)}.${10000 + r.int(89999)}; it reports ${2 + r.int(30)}% better recall than ${b} on long documents, which matters for ${project}.` }],
        ])();
      }
      case 'chat':
        return pick(r, [
          (): Line[] => [{ role: 'user', content: `I finally went hiking near ${pick(r, PLACES)} at the weekend, it was great to be offline for a day.` }],
          (): Line[] => [{ role: 'user', content: `Remind me to call ${pick(r, PEOPLE)} about the ${project} budget on Friday.` }, { role: 'assistant', content: 'Sure, I will remind you on Friday morning.' }],
          (): Line[] => [{ role: 'user', content: `I'm really frustrated, the ${project} build broke again right before the demo.` }],
          (): Line[] => [{ role: 'user', content: `Great news, the ${project} demo went really well and ${pick(r, PEOPLE)} loved it!` }],
          (): Line[] => [{ role: 'user', content: 'I prefer short release notes with one line per change, written in plain English.' }],
        ])();
    }
  }

  private foreign(activity: Activity, project: string, lang: Lang): Line[] {
    const r = this.rng;
    const file = pick(r, FILES);
    if (lang === 'de') {
      return pick(r, [
        (): Line[] => [{ role: 'user', content: `Wir haben entschieden, die Staging-Datenbank von ${project} auf Port ${5400 + r.int(50)} zu verlegen.` }],
        (): Line[] => [{ role: 'assistant', content: `Das Backup für ${project} ist fehlgeschlagen; ich habe die Berechtigungen korrigiert und den Server neu gestartet.` }],
        (): Line[] => [{ role: 'assistant', content: `Den Fehler in ${file} habe ich behoben, alle Testfälle laufen wieder durch.` }],
        (): Line[] => [{ role: 'user', content: `Ich habe den Artikel über ${pick(r, TECH)[0]} gelesen und mit unserer Lösung für ${project} verglichen.` }],
      ])();
    }
    return pick(r, [
      (): Line[] => [{ role: 'assistant', content: `${project}のデプロイが完了しました。ポート${8000 + r.int(100)}で動作しています。` }],
      (): Line[] => [{ role: 'assistant', content: `${file}のバグを修正しました。テストは全部通りました。` }],
      (): Line[] => [{ role: 'user', content: `${project}のバックアップ設定を確認してください。${activity === 'ops' ? 'サーバーを再起動しました。' : ''}` }],
    ])();
  }

  ack(): Line {
    return { role: this.rng.next() < 0.7 ? 'user' : 'assistant', content: pick(this.rng, ACKS) };
  }
}

/**
 * Writes the history to `file`, oldest first; returns what it holds. The same options give the
 * same bytes.
 */
export async function writeHistory(file: string, options: HistoryOptions): Promise<HistoryStats> {
  const rng = new Rng(options.seed);
  const writer = new Writer(options.seed + 1);
  const perDay = options.turnsPerDay ?? 100;
  const out = createWriteStream(file);
  const stats: HistoryStats = { days: options.days, turns: 0, bytes: 0, nightTurns: 0, noiseTurns: 0, decisions: 0, foreignDays: 0, byActivity: {} };
  const emit = async (day: string, minute: number, session: string, line: Line, n: number): Promise<void> => {
    const timestamp = new Date(zonedToUtc(day, minute, options.timeZone)).toISOString();
    const text = JSON.stringify({ role: line.role, content: line.content, timestamp, id: `${day}-${String(n).padStart(3, '0')}`, session }) + '\n';
    stats.bytes += Buffer.byteLength(text);
    stats.turns++;
    if (minute >= 22 * 60 || minute < 7 * 60) stats.nightTurns++;
    if (!out.write(text)) await once(out, 'drain');
  };
  // Two or three projects are in focus at a time; the focus moves every few weeks.
  let focus = [0, 1, 2];
  for (let d = 0; d < options.days; d++) {
    const day = addDay(options.start, d);
    if (d > 0 && rng.next() < 0.06) focus = [rng.int(PROJECTS.length), rng.int(PROJECTS.length), rng.int(PROJECTS.length)];
    const lang: Lang = rng.next() < 0.05 ? (rng.next() < 0.5 ? 'de' : 'ja') : 'en';
    if (lang !== 'en') stats.foreignDays++;
    const lines: Array<{ minute: number; session: string; line: Line }> = [];
    // Heartbeats every two hours through the day, in a session of their own.
    for (let h = 8; h <= 20; h += 2) {
      lines.push({ minute: h * 60 + 5, session: 'heartbeat', line: { role: 'user', content: HEARTBEAT_PROMPT } });
      lines.push({ minute: h * 60 + 6, session: 'heartbeat', line: { role: 'assistant', content: 'HEARTBEAT_OK' } });
    }
    const night = rng.next() < 0.35;
    const sessions = 3 + rng.int(2);
    const budget = perDay - lines.length;
    for (let s = 0; s < sessions; s++) {
      const activity: Activity = pick(rng, ['coding', 'coding', 'ops', 'research', 'chat'] as const);
      const project = PROJECTS[focus[rng.int(focus.length)]!]!;
      const last = s === sessions - 1;
      // The last session of a night day starts at 21:00 and runs past 22:00 (up to ~01:30).
      let minute = last && night ? 21 * 60 + rng.int(40) : 8 * 60 + Math.floor((s * 12 * 60) / sessions) + rng.int(60);
      const share = Math.floor(budget / sessions) + (last ? budget % sessions : 0);
      const session = `${day}-s${s}`;
      const step = last && night ? 12 : Math.max(1, Math.floor(150 / share));
      let made = 0;
      while (made < share) {
        const group = rng.next() < 0.2 ? [writer.ack()] : writer.exchange(activity, project, lang);
        for (const line of group.slice(0, share - made)) {
          if (group.length === 1 && ACKS.includes(line.content)) stats.noiseTurns++;
          lines.push({ minute, session, line });
          stats.byActivity[activity] = (stats.byActivity[activity] ?? 0) + 1;
          minute += 1 + rng.int(step);
          made++;
        }
      }
    }
    stats.noiseTurns += 14;
    lines.sort((a, b) => a.minute - b.minute || (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
    let n = 0;
    for (const l of lines) await emit(day, l.minute, l.session, l.line, n++);
  }
  out.end();
  await once(out, 'finish');
  stats.decisions = writer.decisions;
  return stats;
}
