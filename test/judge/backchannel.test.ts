// Bare acknowledgements (backchannel turns: thanks, agreement, laughter, emoji, politeness) are not
// memories, whatever their punctuation, casing, language or emoji; sentiment with something to say
// and acknowledgements that carry substance still are (issue 30 item 21).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLD, type JudgeInput, type Judgment, judgeHeuristic } from '../../src/judge/heuristic.js';
import { isBareAcknowledgement } from '../../src/judge/backchannel.js';

const TS = '2026-03-02T10:00:00.000Z';

function judge(text: string, extra: Partial<JudgeInput> = {}): Judgment {
  return judgeHeuristic({ text, role: 'user', speaker: null, timestamp: TS, ...extra });
}

const BARE = [
  // the issue's own examples
  'ok thanks', 'great, thanks', 'got it, thanks', 'haha thanks', 'love it', 'sounds good', 'yes please',
  // punctuation, casing, elongation
  'Sounds good!', 'SOUNDS GOOD!!!', 'sounds good.', 'Ok, thanks!', 'OK thanks :)', 'Okkk thanksss', 'Great, thanks!!', 'Love it!', 'I love it!',
  'Yes, exactly.', 'I agree', 'Perfect, well done', 'Good job!', 'Excellent', 'Got it 👍', 'Perfect, thank you so much!', 'Thank you, I really appreciate it',
  // abbreviations and emoji
  'thx', 'ty', 'np', '👍', 'ok ok', 'k thx', 'tysm!', 'lgtm', 'ty 🙏', 'thanks 🙂🙂', '👍👍 sounds good', '+1', 'thanks :D', 'lol ok', 'hahaha nice',
  'sure thing', 'Sure thing!', 'yep, will do', 'Yup, makes sense.', 'cool cool', 'awesome, thank you!', 'no worries, thanks', 'Alright, sounds like a plan',
  'That works for me, thanks!', "that's great, thanks", 'Fair enough', 'Much appreciated!', "You're welcome!", 'Thanks a lot!', 'thank u',
  // with a vocative, a farewell or a polite closing
  'Thanks, Mel!', 'Thanks Nate! See you later!', 'Thanks, Deb! You too, take care. See ya!', 'Great catching up! Take care, talk soon.', 'Got it! Thanks, Maria.',
  'Thanks! Have a great day!', 'Agreed, James!', 'haha yes please 😂', 'Wow, love it ❤️', 'Awesome!! 🎉🎉',
  // other languages
  'merci', 'Merci beaucoup !', 'danke', 'Danke schön!', 'vielen Dank', 'gracias', '¡Muchas gracias!', 'grazie mille', 'obrigado', "d'accord, merci",
  'ok, danke', 'sí, perfecto', 'Super, merci !', 'ありがとう', 'спасибо', '谢谢',
];

const KEPT = [
  // real sentiment
  "You're amazing Frank!", "I'm so proud of you", "I'm grateful for your help", 'I love your turtles so much!',
  // acknowledgements of substance
  'Thanks, moving the DB to port 5433 fixed it', 'Thanks! The retry fix worked on staging.', 'Sounds good, we will go with Postgres instead of MySQL.',
  'Yes please, book the 7pm train to Porto.', 'ok thanks, the deploy key is in 1Password under "staging"',
  'Got it, the staging DB now listens on 5433.', 'Great, thanks! I start at Acme on Monday.',
];

describe('bare acknowledgements (issue 30 item 21)', () => {
  it(`judges ${BARE.length} bare acknowledgements below the threshold`, () => {
    assert.ok(BARE.length >= 30);
    const promoted = BARE.map((text) => [text, judge(text)] as const).filter(([, j]) => j.importance >= DEFAULT_THRESHOLD);
    assert.deepEqual(promoted.map(([t, j]) => `${t} → ${j.importance} (${j.reason})`), []);
  });

  it('recognises them as bare acknowledgements, or as noise', () => {
    for (const text of BARE) {
      const j = judge(text);
      assert.ok(j.category === 'acknowledgement' || j.category === 'noise', `${text}: ${j.category} (${j.reason})`);
    }
  });

  it('keeps them low with context and as the assistant too', () => {
    const context = [{ role: 'assistant', speaker: 'agent', text: 'I moved the staging DB to port 5433. Want me to update the README too?' }];
    for (const text of BARE) {
      for (const extra of [{ context }, { role: 'assistant' }, { speaker: 'Ana' }] as Array<Partial<JudgeInput>>) {
        const j = judge(text, extra);
        assert.ok(j.importance < DEFAULT_THRESHOLD, `${text} ${JSON.stringify(extra).slice(0, 40)} → ${j.importance} (${j.reason})`);
      }
    }
  });

  it('keeps real sentiment and acknowledgements of substance at or above the threshold', () => {
    const dropped = KEPT.map((text) => [text, judge(text)] as const).filter(([, j]) => j.importance < DEFAULT_THRESHOLD);
    assert.deepEqual(dropped.map(([t, j]) => `${t} → ${j.importance} (${j.reason})`), []);
  });

  it('does not call a turn with anything else in it bare', () => {
    for (const text of KEPT) assert.equal(isBareAcknowledgement(text), false, text);
    for (const text of [
      'no thanks', 'not great', "ok but it's broken", 'thanks for nothing', 'sounds good?', 'great, the build is red again',
      'yes please, but on 5433', 'ok thanks '.repeat(40), 'Thanks, Mel! Your kind words mean a lot.',
    ]) {
      assert.equal(isBareAcknowledgement(text), false, text);
    }
  });

  it('treats the speakers\' names as vocatives, and nothing else capitalised', () => {
    assert.equal(isBareAcknowledgement('Thanks Joanna, you too!', new Set(['joanna'])), true);
    assert.equal(isBareAcknowledgement('Thanks, Frank'), true);
    assert.equal(isBareAcknowledgement('Thanks Frank Postgres'), false);
  });

  it('survives hostile input', () => {
    for (const text of ['', ' ', '\u0000', '🙂'.repeat(10_000), 'ha'.repeat(50_000), 'thanks '.repeat(20_000), '\uD800 ok']) {
      assert.equal(typeof isBareAcknowledgement(text), 'boolean');
      assert.ok(judge(text).importance < DEFAULT_THRESHOLD || text.length > 1000);
    }
  });
});
