// Memories and questions beyond English, through the real facade on a real SQLite file: Chinese and
// Japanese found without spaces between words, German, Russian and Spanish found in another
// inflection than the one asked, English as before; hostile text never breaks a search or a write.
// The embedder is the test hash embedder (no meaning across forms), so what is found here is
// found by the keyword side: mode 'bm25' says so.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cairn } from '../../src/service/cairn.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { queryTerms } from '../../src/search/query-terms.js';
import { analyse, detectLanguage } from '../../src/search/text-analysis.js';
import { queryTimeWindow } from '../../src/search/query-time.js';
import { asksWhen, statesTime } from '../../src/search/time-mentions.js';
import { HashEmbedder, tempDir } from '../helpers/store-fixtures.js';

const MEMORIES = [
  '我上周在北京吃了烤鸭，味道非常好。',
  '我的妹妹在上海的一家银行工作。',
  '来週の月曜日に東京で歯医者の予約があります。',
  '娘はピアノのレッスンを毎週土曜日に受けています。',
  'Meine Schwester wohnt seit drei Jahren in Hamburg.',
  'Wir haben die Häuser am See letzten Sommer gemietet.',
  'Моя сестра работает учительницей в Новосибирске.',
  'Мы купили новую машину в прошлом месяце.',
  'Mis hermanas viven en Sevilla desde hace años.',
  'Compramos dos bicicletas rojas para los niños.',
  'We decided to move the staging database to port 5433.',
  'The plumber fixed the kitchen sink on Tuesday.',
];

describe('search beyond English (real facade, real SQLite file)', () => {
  const tmp = tempDir();
  let cairn: Cairn;
  const open = async (): Promise<Cairn> => {
    if (cairn) return cairn;
    cairn = await Cairn.open({ home: join(tmp.dir, 'home'), embedder: new HashEmbedder() });
    for (const text of MEMORIES) await cairn.remember({ text });
    return cairn;
  };
  after(async () => {
    await cairn?.close();
    tmp.cleanup();
  });

  const first = async (query: string): Promise<string | undefined> => {
    const { results } = await (await open()).search(query, { limit: 3, mode: 'bm25' });
    return results[0]?.text;
  };

  it('a Chinese question finds the Chinese memory (no spaces between words)', async () => {
    assert.match((await first('我在北京吃了什么？')) ?? '', /烤鸭/);
    assert.match((await first('妹妹在哪里工作')) ?? '', /银行/);
  });

  it('a Japanese question finds the Japanese memory', async () => {
    assert.match((await first('歯医者の予約はいつ？')) ?? '', /歯医者/);
    assert.match((await first('ピアノのレッスン')) ?? '', /ピアノ/);
  });

  it('German, Russian and Spanish find another inflection of the word asked', async () => {
    // Schwestern → schwest ← Schwester; Haus → haus ← Häuser.
    assert.match((await first('Wo wohnen meine Schwestern?')) ?? '', /Hamburg/);
    assert.match((await first('Welches Haus haben wir gemietet?')) ?? '', /Häuser/);
    // сестры, работала → сестр, работа.
    assert.match((await first('Где работала сестры?')) ?? '', /Новосибирске/);
    // hermana vive ← hermanas viven; bicicleta roja ← bicicletas rojas.
    assert.match((await first('¿Dónde vive mi hermana?')) ?? '', /Sevilla/);
    assert.match((await first('¿Compramos una bicicleta roja?')) ?? '', /bicicletas/);
  });

  it('English is read as before: porter stems, stop words dropped', async () => {
    assert.deepEqual(queryTerms('what did we decide about the port'), ['decid', 'port']);
    assert.match((await first('which port did we decide on for staging')) ?? '', /5433/);
    assert.match((await first('who fixed the sinks')) ?? '', /plumber/);
    assert.equal(detectLanguage('tiles clients'), 'en', 'two plain words are not taken for another language');
  });

  it('hostile text gives a clear result, never a crash', async () => {
    const c = await open();
    // An empty question is refused with a message that says so; the rest search.
    for (const q of ['', '   ']) await assert.rejects(c.search(q, { limit: 5 }), /query is empty/);
    const hostile = ['😀🎉🚀', '👩‍👩‍👧', '\u0000\uFFFF', '"NEAR( OR * ^', '北京烤鸭'.repeat(499), `mixed 中文 日本語 Deutsch Русский ${'ß'.repeat(50)}`];
    for (const q of hostile) {
      const res = await c.search(q, { limit: 5 });
      assert.ok(Array.isArray(res.results), JSON.stringify(q.slice(0, 20)));
    }
    await assert.rejects(c.search('漢'.repeat(100_000), { limit: 5 }), /longer than 2000 characters/);
    assert.ok(queryTerms('漢字と仮名'.repeat(20_000)).length <= 32, '100k characters of CJK: bounded terms');
    const big = await c.remember({ text: `会议记录：${'我们讨论了预算和时间表。'.repeat(600)}` });
    assert.ok(big.memory.id);
    const emoji = await c.remember({ text: '🎉🎉🎉' });
    assert.ok(emoji.memory.id);
    assert.match((await first('预算 时间表')) ?? '', /会议记录/);
    assert.deepEqual(analyse(''), []);
    assert.deepEqual(analyse('😀🎉'), []);
  });
});

describe('migration V14 rebuilds the keyword index from a V13 home', () => {
  it('entries written under porter unicode61 are found by Chinese and German questions after the upgrade', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.dir, 'cairn.db');
      const raw = new Database(path);
      for (let v = 0; v < 13; v++) raw.exec(MIGRATIONS[v]!);
      raw.pragma('user_version = 13');
      raw.prepare('INSERT INTO namespaces (id, created_at) VALUES (?, ?)').run('default', '2026-01-01T00:00:00Z');
      const add = raw.prepare("INSERT INTO entries (namespace, kind, ref_id, body, time) VALUES ('default', 'document', ?, ?, '2026-01-01T00:00:00Z')");
      add.run('d1', '我上周在北京吃了烤鸭。');
      add.run('d2', 'Meine Schwester wohnt in Hamburg.');
      add.run('d3', 'The staging database moved to port 5433.');
      // Under V13 the Chinese sentence is one token: a question for 北京 does not find it.
      assert.equal(raw.prepare("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH '\"北京\"'").pluck().get(), 0);
      raw.close();

      const store = new SqliteStore(path);
      try {
        assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
        const found = async (q: string) => (await store.getEntries('default', (await store.keywordSearch('default', queryTerms(q), 10)).map((h) => h.seq))).map((e) => e.text);
        assert.deepEqual(await found('北京'), ['我上周在北京吃了烤鸭。']);
        assert.deepEqual(await found('Wo wohnen die Schwestern?'), ['Meine Schwester wohnt in Hamburg.']);
        assert.deepEqual(await found('databases'), ['The staging database moved to port 5433.']);
        // Writes after the upgrade go through the triggers: an update re-indexes, a delete unindexes.
        store.db.prepare("UPDATE entries SET body = '我们在上海开会。' WHERE ref_id = 'd1'").run();
        assert.deepEqual(await found('北京'), []);
        assert.deepEqual(await found('上海'), ['我们在上海开会。']);
        store.db.prepare("DELETE FROM entries WHERE ref_id = 'd2'").run();
        assert.deepEqual(await found('Schwester'), []);
        assert.equal((await store.health({ integrity: true })).ok, true);
      } finally {
        await store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });
});

describe('time phrases beyond English', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('a question\'s time is read in its language (chrono-node de/es/ru/ja/zh)', async () => {
    const day = async (q: string) => {
      const w = await queryTimeWindow(q, now);
      return w?.kind === 'days' ? [w.from, w.to] : null;
    };
    assert.deepEqual(await day('¿Qué hicimos ayer?'), ['2026-11-25', '2026-11-25']);
    assert.deepEqual(await day('Что мы решили вчера?'), ['2026-11-25', '2026-11-25']);
    assert.deepEqual(await day('昨日何を食べた？'), ['2026-11-25', '2026-11-25']);
    assert.deepEqual(await day('2024年3月5日发生了什么'), ['2024-03-05', '2024-03-05']);
    // A week is read as the days around the one chrono names, as "last week" is.
    const week = await day('Was haben wir letzte Woche entschieden?');
    assert.ok(week && week[0]! < week[1]! && week[1]! <= '2026-11-26', JSON.stringify(week));
    assert.equal(await day('Wo wohnt Anna?'), null);
    assert.equal(await day('😀'), null);
  });

  it('asking when and stating a time are told in other languages too', () => {
    for (const q of ['Wann war der Termin?', '¿Cuándo es la cita?', 'Когда релиз?', '歯医者の予約はいつ？', '孩子什么时候学游泳？']) assert.ok(asksWhen(q), q);
    assert.ok(!asksWhen('Wo wohnt Anna?'));
    for (const t of ['Wir waren gestern im Kino.', 'Ayer fuimos al cine.', 'Вчера мы ходили в кино.', '昨日映画を見た。', '我们上周去了上海。']) assert.ok(statesTime(t), t);
    assert.ok(!statesTime('Das Haus ist rot.'));
  });
});
