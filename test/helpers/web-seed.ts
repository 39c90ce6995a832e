// The home the web UI's browser tests share: a "work" namespace with memories that carry
// provenance (a transcript file and line, a session), a "private" one that a work-only token must
// not reach, and tokens for both cases.
import type { Cairn } from '../../src/service/cairn.js';

export const XSS_TEXT = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> stored as text';

export interface WebSeed {
  /** Granted "work" only. */
  workToken: string;
  /** Granted every namespace. */
  allToken: string;
  staging: string;
  deploy: string;
  xss: string;
  privateId: string;
}

export async function seedWebHome(cairn: Cairn): Promise<WebSeed> {
  const remember = async (namespace: string, text: string, extra: object = {}) => (await cairn.remember({ namespace, text, ...extra })).memory.id;
  const staging = await remember('work', 'We decided to move the staging database to port 5433', {
    category: 'decision',
    importance: 6,
    tags: ['db'],
    provenance: [{ source: 'claude-code', path: '/home/dev/.claude/projects/app/session-1.jsonl', line: 42, sessionId: 'session-1', timestamp: '2026-11-20T10:15:00Z' }],
  });
  const deploy = await remember('work', 'Deploys go out on Tuesdays after the standup', { category: 'fact', importance: 5 });
  await remember('work', 'The release checklist lives in docs/RELEASE.md', { category: 'fact', importance: 4 });
  const xss = await remember('work', XSS_TEXT, { category: 'note', importance: 5 });
  const privateId = await remember('private', 'The private namespace keeps its own secrets', { category: 'fact' });
  const workToken = (await cairn.createToken({ namespaces: ['work'], label: 'web test' })).token;
  const allToken = (await cairn.createToken({ namespaces: ['*'], label: 'web test all' })).token;
  return { workToken, allToken, staging, deploy, xss, privateId };
}
