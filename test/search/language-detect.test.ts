// detectLanguage settles most texts without tinyld (whose tables take ~250 ms of CPU to load, most
// of a cold `cairn search` once): it must give exactly what the full rule gives, asking tinyld, and
// must not load tinyld for the texts it settles.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { detectLanguage, words, type Language } from '../../src/search/text-analysis.js';
import { ENGLISH, hasStopWordOf } from '../../src/search/stop-words.js';
import { hasOtherLatinFunctionWord } from '../../src/search/function-words.js';
import { seeded } from '../helpers/prng.js';

const { detectAll } = createRequire(import.meta.url)('tinyld') as typeof import('tinyld');

/**
 * The rule without its shortcuts: every Latin text not settled by English stop words goes to
 * tinyld, whose verdict for a text without accented letters stands only with evidence: one of the language's stop
 * words in a text under 8 words, a function word of any other Latin language in a longer one.
 */
function fullRule(text: string): Language {
  const sample = text.length > 600 ? text.slice(0, 600) : text;
  const latin = sample.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const cyrillic = sample.match(/\p{Script=Cyrillic}/gu)?.length ?? 0;
  if (cyrillic > latin) return 'ru';
  if (latin < 3) return 'en';
  // No Latin letter English does not write (é, ü, ñ…); arrows, dashes and curly quotes are no such letter.
  const plainLatin = !/[^\P{Script=Latin}\x00-\x7f]/u.test(sample);
  if (plainLatin) {
    const all = words(sample);
    const stop = all.filter((w) => ENGLISH.has(w)).length;
    if (stop >= 2 && stop * 4 >= all.length) return 'en';
  }
  const ranked = detectAll(sample, { only: ['en', 'de', 'es', 'fr', 'it', 'pt', 'nl'] });
  const top = ranked[0];
  if (!top || top.lang === 'en') return 'en';
  const english = ranked.find((r) => r.lang === 'en')?.accuracy ?? 0;
  if (top.accuracy < 2 * english) return 'en';
  const all = words(sample);
  const evidence = all.length < 8 ? hasStopWordOf(all, top.lang) : hasOtherLatinFunctionWord(all);
  return !plainLatin || evidence ? (top.lang as Language) : 'en';
}

/** What an ES module script (run from the repository) prints, in a process of its own: what it loaded is its own. */
function inFreshProcess(script: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

// Words of the languages tinyld is asked about, stop words among them, to mix into short texts.
const VOCABULARY = [
  'staging database port deploy cluster backup nightly pipeline release server',
  'der die und mit ein nicht Haus Schwester wohnen Hamburg Arbeit gestern',
  'el la los con una por hermana viven Sevilla bicicleta roja trabajo',
  'le les des avec une pour maison soeur habite travail hier',
  'il della con per casa sorella lavoro ieri',
  'o da com para casa irmã trabalho ontem',
  'het een met voor huis zus werk gisteren',
  'tiles clients Ana Bo café niño über',
].flatMap((line) => line.split(' '));

describe('detectLanguage', () => {
  it('gives what the full rule gives, on texts of 1 to 12 words of eight languages mixed', () => {
    const rand = seeded(29);
    for (let i = 0; i < 3000; i++) {
      const n = 1 + Math.floor(rand() * 12);
      const text = Array.from({ length: n }, () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]!).join(' ');
      assert.equal(detectLanguage(text), fullRule(text), text);
    }
  });

  it('gives what the full rule gives on real questions, long texts and odd input', () => {
    const texts = [
      'Wo wohnen meine Schwestern?', '¿Dónde vive mi hermana?', 'Welches Haus haben wir gemietet?', 'Où habite ma soeur ?',
      'staging database port', 'which port did we decide on for staging', 'tiles clients', 'Hamburg Sevilla',
      'Ich habe gestern mit meiner Schwester in Hamburg gesprochen und wir haben über die Arbeit geredet',
      'Где работала сестры?', '我的姐姐住在哪里', '', '   ', '1234 5678', 'a'.repeat(5000), 'über über über',
    ];
    for (const text of texts) assert.equal(detectLanguage(text), fullRule(text), text);
  });

  it('reads sentences of each language written without accents as that language', () => {
    const sentences: Array<[string, Language]> = [
      ['Wir haben gestern beschlossen, die Datenbank im Mai nach Postgres zu verschieben.', 'de'],
      ['Ayer decidimos que la base de datos se va a mover a Postgres en mayo con el equipo.', 'es'],
      ['Nous avons decide hier que la base de donnees sera migree vers Postgres en mai avec le client.', 'fr'],
      ['Ieri abbiamo deciso che il database sara spostato su Postgres a maggio con il cliente.', 'it'],
      ['Ontem decidimos que o banco de dados vai ser migrado para o Postgres em maio com o cliente.', 'pt'],
      ['Gisteren hebben we besloten dat de database in mei naar Postgres gaat met het team.', 'nl'],
    ];
    for (const [text, language] of sentences) assert.equal(detectLanguage(text), language, text);
  });

  it("reads code, tool output and terse notes without another language's function words as English, without tinyld", () => {
    const texts = [
      'Tests pass again. The order total skipped GST when the basket held a single line; `Order.total()` now applies the 15% rate in every case.\n\n```diff\n--- a/orders/views.py\n+++ b/orders/views.py\n-    if len(lines) > 1:\n+    total = subtotal * Decimal("1.15")\n```',
      '← Read: 1→groups: 2→ - name: frequency 3→ rules: 4→ - alert: GridFrequencyDeviation 5→ expr: abs(avg_over_time(grid_frequency_hz[2m]) - 50) > 0.2',
      'Deployed billing service v2 to production cluster after migration review, rollback plan documented, alerts green.',
    ];
    const script = `
      import { detectLanguage } from './src/search/text-analysis.ts';
      import { createRequire } from 'node:module';
      const langs = ${JSON.stringify(texts)}.map((t) => detectLanguage(t));
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/tinyld/'));
      process.stdout.write(JSON.stringify({ langs, loaded }));`;
    assert.deepEqual(JSON.parse(inFreshProcess(script)), { langs: ['en', 'en', 'en'], loaded: false });
    // tinyld alone reads the first two as Dutch and Portuguese: the rule, not luck, settles them.
    assert.notEqual(detectAll(texts[0]!.slice(0, 600), { only: ['en', 'de', 'es', 'fr', 'it', 'pt', 'nl'] })[0]?.lang, 'en');
    assert.equal(hasOtherLatinFunctionWord(words(texts[0]!)), false);
  });

  it('loads neither tinyld nor the Snowball stemmers for short English queries, both for a German one', () => {
    const probe = (query: string): string => {
      const script = `
        import { analyse, detectLanguage } from './src/search/text-analysis.ts';
        import { createRequire } from 'node:module';
        const lang = detectLanguage(${JSON.stringify(query)});
        const loaded = (pkg) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/' + pkg + '/'));
        analyse(${JSON.stringify(query)}, lang);
        process.stdout.write([lang, loaded('tinyld'), loaded('snowball-stemmers')].join(' '));`;
      return inFreshProcess(script);
    };
    assert.equal(probe('staging database port'), 'en false false');
    assert.equal(probe('which port is the staging db on'), 'en false false');
    assert.equal(probe('Wo wohnen meine Schwestern?'), 'de true true');
  });
});
