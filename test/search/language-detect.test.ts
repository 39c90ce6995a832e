// detectLanguage settles most texts without tinyld (whose tables take ~250 ms of CPU to load, most
// of a cold `cairn search` once): it must give exactly what the full rule gives, asking tinyld, and
// must not load tinyld for the texts it settles.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { detectLanguage, words, type Language } from '../../src/search/text-analysis.js';
import { ENGLISH, hasStopWordOf } from '../../src/search/stop-words.js';
import { seeded } from '../helpers/prng.js';

const { detectAll } = createRequire(import.meta.url)('tinyld') as typeof import('tinyld');

/** The rule as it read before the shortcut: every Latin text not settled by English stop words goes to tinyld. */
function fullRule(text: string): Language {
  const sample = text.length > 600 ? text.slice(0, 600) : text;
  const latin = sample.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const cyrillic = sample.match(/\p{Script=Cyrillic}/gu)?.length ?? 0;
  if (cyrillic > latin) return 'ru';
  if (latin < 3) return 'en';
  const ascii = /^[\x00-\x7f]*$/.test(sample);
  if (ascii) {
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
  return !ascii || all.length >= 8 || hasStopWordOf(all, top.lang) ? (top.lang as Language) : 'en';
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

  it('loads neither tinyld nor the Snowball stemmers for short English queries, both for a German one', () => {
    const probe = (query: string): string => {
      const script = `
        import { analyse, detectLanguage } from './src/search/text-analysis.ts';
        import { createRequire } from 'node:module';
        const lang = detectLanguage(${JSON.stringify(query)});
        const loaded = (pkg) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/' + pkg + '/'));
        analyse(${JSON.stringify(query)}, lang);
        process.stdout.write([lang, loaded('tinyld'), loaded('snowball-stemmers')].join(' '));`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    assert.equal(probe('staging database port'), 'en false false');
    assert.equal(probe('which port is the staging db on'), 'en false false');
    assert.equal(probe('Wo wohnen meine Schwestern?'), 'de true true');
  });
});
