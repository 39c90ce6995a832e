// Shared material for end-to-end consolidation tests: a generic JSONL transcript spanning several
// days (with turns at 23:30 and 02:00 of one working night), and readers of a namespace's files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** A home in Berlin without an embedder (fast: no model load per process). */
export const BERLIN = { embedder: { provider: 'none' }, timezone: 'Europe/Berlin' } as const;

export interface Line {
  id: string;
  content: string;
  timestamp: string;
  role?: string;
  session?: string;
}

export const jsonl = (lines: readonly Line[]): string =>
  lines.map((l) => JSON.stringify({ role: l.role ?? 'user', content: l.content, id: l.id, session: l.session ?? 's1', timestamp: l.timestamp }) + '\n').join('');

// Berlin is UTC+1 in early March 2026: 08:15Z is 09:15 local, 22:30Z is 23:30, 01:00Z is 02:00.
export const SEVERAL_DAYS: Line[] = [
  { id: 'a1', timestamp: '2026-03-02T08:15:00Z', content: 'We decided to move the staging database to port 6543 because 5432 is taken by the legacy cluster.' },
  { id: 'a2', timestamp: '2026-03-02T08:16:00Z', role: 'assistant', content: 'I changed config/staging.yaml so the service connects to port 6543 and restarted the deploy.' },
  { id: 'a3', timestamp: '2026-03-02T08:17:00Z', content: 'ok' },
  { id: 'a4', timestamp: '2026-03-02T13:40:00Z', content: 'The nightly backup job failed again with a permission error on /var/backups; fixed it by changing the owner.' },
  { id: 'n1', timestamp: '2026-03-02T22:30:00Z', content: 'Late debugging session: the websocket reconnect loop was caused by a missing heartbeat timeout in client.ts.' },
  { id: 'n2', timestamp: '2026-03-03T01:00:00Z', content: 'Fixed the reconnect bug by adding a 30 second heartbeat timeout; all integration tests pass now.' },
  { id: 'b1', timestamp: '2026-03-03T09:00:00Z', content: 'Plan for today: write the migration guide for the staging port change and review the backup alerts.' },
  { id: 'b2', timestamp: '2026-03-03T10:30:00Z', content: 'I prefer short release notes with one line per change, written in plain English.' },
  { id: 'c1', timestamp: '2026-03-04T09:45:00Z', content: 'The nightly backup job failed again on /var/backups; this time the disk was full, so we added log rotation.' },
  { id: 'c2', timestamp: '2026-03-04T15:10:00Z', role: 'assistant', content: 'I configured logrotate to keep seven days of backup logs and verified the cron entry.' },
  { id: 'd1', timestamp: '2026-03-05T08:30:00Z', content: 'We decided to ship the migration guide on Thursday after the staging port change is verified.' },
  { id: 'd2', timestamp: '2026-03-05T12:00:00Z', content: 'Released version 2.4 of the billing service with the new invoice export.' },
];

/** Every full `m_…`/`t_…` id cited in backticks. */
export function citedIds(text: string): string[] {
  return [...text.matchAll(/`([mt]_[A-Za-z0-9_~-]+)`/g)].map((m) => m[1]!);
}

/** The files of a namespace folder Cairn's consolidation writes (raw/ and dot files aside), path → text. */
export function namespaceFiles(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.') || (prefix === '' && (e.name === 'raw' || e.name === 'SESSION-STATE.md'))) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of namespaceFiles(join(dir, e.name), rel)) out.set(k, v);
    else out.set(rel, readFileSync(join(dir, e.name), 'utf8'));
  }
  return out;
}

/** Every file name under a folder, dot files and temporary files included (a crash must leave none visible). */
export function allNames(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...allNames(join(dir, e.name), rel));
    else out.push(rel);
  }
  return out.sort();
}

/** The ids of the namespace's stored memories and turns, read from the home's database file. */
export function storedIds(home: string, namespace: string): Set<string> {
  const db = new Database(join(home, 'cairn.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id FROM memories WHERE namespace = ? UNION ALL SELECT id FROM turns WHERE namespace = ?').all(namespace, namespace) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  } finally {
    db.close();
  }
}
