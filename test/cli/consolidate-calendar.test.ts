// The calendar's edges end to end, through the real CLI, in a home in America/New_York: the
// fall-back night (01:30 happens twice) and the spring-forward night (02:00–03:00 never happens)
// each land whole in the night file of the day they started; New Year's night belongs to
// 2026-12-31, and 2026-12-28 … 2027-01-03 is ISO week 2026-W53.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson, ok, runCli, tempHomes } from '../helpers/cli.js';
import { jsonl, namespaceFiles, type Line } from '../helpers/consolidation.js';
import { tempDir } from '../helpers/store-fixtures.js';

const newHome = tempHomes({ embedder: { provider: 'none' }, timezone: 'America/New_York' });

const line = (id: string, timestamp: string, content: string): Line => ({ id, timestamp, content, session: id.slice(0, 2) });

const LINES: Line[] = [
  // Fall back: 2026-11-01 02:00 EDT → 01:00 EST. The night of Sat 2026-10-31 is ten hours long.
  line('fb1', '2026-11-01T03:30:00Z', 'Started the database failover drill for the payments cluster at 23:30.'), // 23:30 EDT
  line('fb2', '2026-11-01T05:30:00Z', 'The replica promotion finished, first pass of the failover drill took nine minutes.'), // 01:30 EDT
  line('fb3', '2026-11-01T06:30:00Z', 'Second pass of the failover drill after the clock change took only four minutes.'), // 01:30 EST
  line('fb4', '2026-11-01T11:30:00Z', 'Wrote the failover drill report and filed two follow-up tickets for the pager rules.'), // 06:30 EST
  line('fb5', '2026-11-01T12:30:00Z', 'Morning review of the failover report with the payments team went well.'), // 07:30 EST: the day
  // Spring forward: 2026-03-08 02:00 EST → 03:00 EDT. The night of Sat 2026-03-07 is eight hours long.
  line('sf1', '2026-03-08T04:30:00Z', 'Began migrating the search index to the new shard layout at 23:30.'), // 23:30 EST
  line('sf2', '2026-03-08T06:59:00Z', 'Half of the search shards are migrated; the reindex throughput is fine.'), // 01:59 EST
  line('sf3', '2026-03-08T07:01:00Z', 'Shard seven of the search migration resumed without errors after the clock jumped.'), // 03:01 EDT
  line('sf4', '2026-03-08T10:45:00Z', 'Finished the search shard migration and switched the read traffic to the new layout.'), // 06:45 EDT
  line('sf5', '2026-03-08T11:15:00Z', 'Sunday morning: checked the search latency dashboards after the shard migration.'), // 07:15 EDT: the day
  // New Year in week 53.
  line('ny1', '2026-12-31T15:00:00Z', 'Closed the yearly invoice batch for the accounting export on the last day of the year.'), // 10:00 EST
  line('ny2', '2027-01-01T06:00:00Z', 'Past midnight on New Year: fixed the fireworks ticket sale outage by raising the queue limit.'), // 01:00 EST
  line('ny3', '2027-01-03T15:00:00Z', 'Planned the January roadmap for the ticketing service on Sunday.'), // Sun 10:00 EST, still W53
  line('ny4', '2027-01-04T15:00:00Z', 'Monday: kicked off the ticketing roadmap with the whole team.'), // 2027-W01
];

describe('consolidation across DST and the year boundary (America/New_York)', () => {
  it('each night lands whole in the file of the day it started; New Year lands in 2026-W53', async () => {
    const home = newHome();
    const dir = tempDir('cairn-calendar-');
    try {
      const file = join(dir.dir, 'turns.jsonl');
      writeFileSync(file, jsonl(LINES));
      chmodSync(file, 0o644);
      ok(await runCli(['-n', 'cal', 'ingest', file, '-f', 'jsonl'], { home }));
    } finally {
      dir.cleanup();
    }
    const report = await cliJson(['consolidate', '--at', '2027-01-10T12:00:00Z', '--json'], { home });
    const ns = report.namespaces[0];
    assert.deepEqual(ns.days, ['2026-03-07', '2026-03-08', '2026-10-31', '2026-11-01', '2026-12-31', '2027-01-03', '2027-01-04']);
    assert.deepEqual(ns.weeks, ['2026-W10', '2026-W44', '2026-W53', '2027-W01']);
    const files = namespaceFiles(join(home, 'cal'));
    const get = (p: string): string => {
      const text = files.get(p);
      assert.ok(text !== undefined, `${p} missing; have ${[...files.keys()].join(', ')}`);
      return text;
    };

    const fallBack = get('daily/2026-10-31-last-night.md');
    assert.match(fallBack, /^# 2026-10-31 · last night \(22:00 → 07:00 on 2026-11-01, America\/New_York\)$/m);
    for (const [time, words] of [['23:30', 'Started the database failover'], ['01:30', 'first pass of the failover'], ['01:30', 'Second pass of the failover'], ['06:30', 'failover drill report']]) {
      assert.match(fallBack, new RegExp(`^- ${time} .*${words}`, 'm'), `${time} ${words} in\n${fallBack}`);
    }
    assert.doesNotMatch(fallBack, /Morning review/);
    assert.match(get('daily/2026-11-01.md'), /^- 07:30 .*Morning review of the failover report/m);
    assert.ok(!files.has('daily/2026-11-01-last-night.md') || !/failover drill/.test(files.get('daily/2026-11-01-last-night.md')!));

    const springForward = get('daily/2026-03-07-last-night.md');
    assert.match(springForward, /22:00 → 07:00 on 2026-03-08, America\/New_York/);
    for (const [time, words] of [['23:30', 'Began migrating the search index'], ['01:59', 'Half of the search shards'], ['03:01', 'clock jumped'], ['06:45', 'Finished the search shard migration']]) {
      assert.match(springForward, new RegExp(`^- ${time} .*${words}`, 'm'), `${time} ${words} in\n${springForward}`);
    }
    assert.match(get('daily/2026-03-08.md'), /^- 07:15 .*latency dashboards/m);
    assert.doesNotMatch(get('daily/2026-03-08.md'), /clock jumped/);

    const newYear = get('daily/2026-12-31-last-night.md');
    assert.match(newYear, /^- 01:00 .*fireworks ticket sale outage/m);
    assert.ok(!files.has('daily/2027-01-01.md'), 'nothing happened on the day of New Year itself');
    const w53 = get('weekly/2026-W53.md');
    assert.match(w53, /fireworks ticket sale outage/);
    assert.match(w53, /January roadmap/, 'Sunday 2027-01-03 is still in 2026-W53');
    assert.doesNotMatch(w53, /kicked off the ticketing roadmap/);
    assert.match(get('weekly/2027-W01.md'), /kicked off the ticketing roadmap/);
    assert.match(get('reviews/2026-12-31.md'), /fireworks ticket sale outage/, 'the review covers the day and its night');

    // By hand, the week's distill alone, and the week that does not exist in 2027.
    const week = await cliJson(['-n', 'cal', 'consolidate', '--week', '2026-W53', '--at', '2027-01-10T12:00:00Z', '--json'], { home });
    assert.deepEqual(week.namespaces[0].files.filter((f: { changed: boolean }) => f.changed), []);
    const bad = await runCli(['-n', 'cal', 'consolidate', '--week', '2027-W53'], { home });
    assert.equal(bad.code, 3, bad.stderr);
  });
});
