// The heuristic judge: the calibration, every category in coding-agent and
// personal-assistant wording, negation, tool and compaction turns, hostile input, determinism, and
// feedback that moves later judgments (and only the related ones).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CATEGORIES, type Category } from '../../src/core/types.js';
import {
  DEFAULT_THRESHOLD, HEURISTIC_VERSION, type HeuristicWeights, type JudgeInput, type Judgment, judgeHeuristic, learnWeights,
} from '../../src/judge/heuristic.js';

const TS = '2026-03-02T10:00:00.000Z';

function judge(text: string, extra: Partial<JudgeInput> = {}, weights?: HeuristicWeights): Judgment {
  return judgeHeuristic({ text, role: 'user', speaker: null, timestamp: TS, ...extra }, weights);
}

function assertValid(j: Judgment, label: string): void {
  assert.ok(Number.isInteger(j.importance) && j.importance >= 1 && j.importance <= 10, `${label}: importance ${j.importance}`);
  assert.ok((CATEGORIES as readonly string[]).includes(j.category) && j.category !== 'note', `${label}: category ${j.category}`);
  assert.equal(typeof j.reason, 'string');
  assert.ok(j.reason.length > 0 && j.reason.length <= 200 && !/[\r\n]/.test(j.reason), `${label}: reason ${JSON.stringify(j.reason)}`);
  assert.equal(j.judge, 'heuristic');
}

function expectCategory(text: string, category: Category, min: number, extra: Partial<JudgeInput> = {}): Judgment {
  const j = judge(text, extra);
  assertValid(j, text);
  assert.equal(j.category, category, `${text} → ${j.category} (${j.reason})`);
  assert.ok(j.importance >= min, `${text} → ${j.importance} < ${min} (${j.reason})`);
  return j;
}

describe('calibration from the issue', () => {
  it('keeps "You\'re amazing Frank!" (sentiment → 6)', () => {
    const j = judge("You're amazing Frank!");
    assert.ok(j.importance >= 6, j.reason);
    assert.ok(j.importance >= DEFAULT_THRESHOLD);
    assert.equal(j.category, 'feeling');
  });

  it('keeps other short turns that carry sentiment at 6', () => {
    for (const text of ["I'm so proud of you", 'This trip was incredible!', "I'm grateful for your help", 'Thanks, Mel! Your kind words mean a lot.']) {
      const j = judge(text);
      assert.equal(j.importance, 6, `${text}: ${j.reason}`);
    }
  });

  it('treats "ok", "thanks", "sure" alone as noise (≤ 2)', () => {
    for (const text of ['ok', 'OK.', 'thanks', 'Thanks!', 'sure', 'Sure.', 'okay', 'thank you', 'Thanks, Frank!']) {
      const j = judge(text);
      assert.equal(j.category, 'noise', `${text}: ${j.category}`);
      assert.ok(j.importance <= 2, `${text}: ${j.importance}`);
    }
  });

  it('keeps bare acknowledgements below the threshold (issue 30 item 21; more in backchannel.test.ts)', () => {
    for (const text of ['Yes, exactly.', 'I agree', 'Perfect, well done', 'Good job!', 'Right, nicely done.', 'Excellent', 'Thank you, I really appreciate it']) {
      const j = judge(text);
      assert.ok(j.importance < DEFAULT_THRESHOLD, `${text}: ${j.importance} (${j.reason})`);
      assert.equal(j.category, 'acknowledgement', text);
    }
  });

  it('keeps a short acknowledgement with something more at the threshold (5)', () => {
    for (const text of ['Agreed, that plan is solid.', 'Right, good call on the retries']) {
      const j = judge(text);
      assert.equal(j.importance, 5, `${text}: ${j.reason}`);
      assert.equal(j.category, 'acknowledgement', text);
    }
  });

  it('keeps a short explicit request to remember (promoted), but not a question about memories', () => {
    for (const text of ['Remember the staging port setting', "Don't forget the deploy key rotation", 'Please note the new VPN profile']) {
      const j = judge(text);
      assert.ok(j.importance >= DEFAULT_THRESHOLD, `${text}: ${j.importance} (${j.reason})`);
    }
    for (const text of ['Do you remember the concert?', 'Remember when?']) {
      assert.ok(judge(text).importance < DEFAULT_THRESHOLD, text);
    }
  });

  it('skips other trivial short turns (≤ 3)', () => {
    for (const text of ['Hmm let me think about it', 'what time?', 'brb', 'lol', 'see you later']) {
      const j = judge(text);
      assert.ok(j.importance <= 3, `${text}: ${j.importance} (${j.reason})`);
      assert.ok(j.importance < DEFAULT_THRESHOLD);
    }
  });

  it('judges "We decided to move the staging DB to port 5433 on Friday" a decision at 7–8', () => {
    const j = judge('We decided to move the staging DB to port 5433 on Friday');
    assert.equal(j.category, 'decision');
    assert.ok(j.importance >= 7 && j.importance <= 8, String(j.importance));
  });

  it('still reads a short turn with a concrete fact on its content', () => {
    const j = judge('Let’s use port 5433 instead.');
    assert.equal(j.category, 'decision', j.reason);
    assert.ok(j.importance >= 7);
  });
});

describe('categories in agent conversations', () => {
  it('decision', () => {
    expectCategory("Let's go with Postgres instead of MySQL for the event store.", 'decision', 7);
    expectCategory("We'll switch CI to GitHub Actions and drop Jenkins by the end of the month.", 'decision', 7);
    expectCategory('I decided to book the 7pm train to Porto instead of flying.', 'decision', 7);
    expectCategory('Use 500 ms as the base delay instead', 'decision', 7);
  });

  it('discovery', () => {
    expectCategory('I found that the flaky test was caused by a race in the cache warm-up.', 'discovery', 5, { role: 'assistant' });
    expectCategory('Turns out the API rate limit is 600 requests per minute, not 1000 as the docs say.', 'discovery', 6, { role: 'assistant' });
    expectCategory('I learned that the pharmacy on Elm Street closes at 6pm on Sundays.', 'discovery', 6);
  });

  it('implementation', () => {
    expectCategory('I implemented the retry helper in src/net/fetch.ts with exponential backoff (3 attempts).', 'implementation', 6, { role: 'assistant' });
    expectCategory('Migrated the users table to the new schema and added an index on the email column.', 'implementation', 5, { role: 'assistant' });
    expectCategory('Fixed the null pointer in the invoice exporter; the nightly job runs clean again.', 'implementation', 5, { role: 'assistant' });
  });

  it('issue', () => {
    expectCategory('The deploy failed with a 502 from the load balancer after the health check timed out.', 'issue', 6);
    expectCategory('The build is broken on main since the lockfile update, npm ci errors out.', 'issue', 6);
    expectCategory('My laptop battery is broken again, it dies after 20 minutes off the charger.', 'issue', 5);
  });

  it('success', () => {
    expectCategory('All 214 tests passed and the release v2.3.1 shipped to production this afternoon.', 'success', 6, { role: 'assistant' });
    expectCategory('I passed my driving test this morning on the first try, so happy!', 'success', 6);
  });

  it('preference', () => {
    expectCategory('I prefer tabs over spaces and please never use semicolons in this codebase.', 'preference', 5);
    expectCategory('I hate early morning meetings, so please keep my calendar free before 10am.', 'preference', 6);
    expectCategory("I don't like olives or anchovies on my pizza, please remember that.", 'preference', 6);
  });

  it('fact', () => {
    expectCategory('My daughter is named Sofia and she was born on 3 March 2019.', 'fact', 7);
    expectCategory('I live in Lisbon and I work as a nurse at the Santa Maria hospital.', 'fact', 6);
    expectCategory('I moved to Berlin last year for a new job at a startup.', 'fact', 6);
    expectCategory('The staging database runs on port 5433 and the backups go to the eu-west bucket.', 'fact', 5, { role: 'assistant' });
  });

  it('plan', () => {
    expectCategory("I'm flying to Tokyo on June 14 for a conference and I'll be back on the 21st.", 'plan', 6);
    expectCategory('Next sprint we plan to migrate the billing service to the new queue by March 3.', 'plan', 6);
    expectCategory('Add a retry to the fetch helper: 3 attempts, exponential backoff', 'plan', 5);
  });

  it('plan: a full date after the turn\'s own timestamp makes a statement a plan', () => {
    const text = 'The quarterly board review is on 2026-04-15 in the main office.';
    assert.equal(judge(text, { timestamp: '2026-03-02T10:00:00Z' }).category, 'plan');
    assert.equal(judge(text, { timestamp: '2026-05-01T10:00:00Z' }).category, 'fact');
  });

  it('feeling', () => {
    expectCategory("I'm really anxious about the job interview on Thursday, I barely slept last night.", 'feeling', 6);
    expectCategory('I felt so relieved when the biopsy results came back clear yesterday.', 'feeling', 5);
  });

  it('philosophy (reflections rank below the facts around them)', () => {
    const a = expectCategory('I think the best code is the code you never have to write; simplicity beats cleverness in the long run.', 'philosophy', 1);
    const b = expectCategory('In the end, what matters most is how you treat the people around you, not what you own.', 'philosophy', 1);
    assert.ok(a.importance <= 6 && b.importance <= 6);
  });

  it('acknowledgement and noise', () => {
    const ack = judge('Great, exactly!');
    assert.equal(ack.category, 'acknowledgement', ack.reason);
    assert.ok(ack.importance < DEFAULT_THRESHOLD, ack.reason);
    const j = judge('Hey, how are you doing today? Hope everything is going well with you!');
    assert.ok(j.importance < DEFAULT_THRESHOLD, j.reason);
  });
});

describe('negation', () => {
  it('"not broken" is not an issue', () => {
    const j = judge('The build is not broken, it was just a slow runner this morning and everything is fine.');
    assert.notEqual(j.category, 'issue', j.reason);
  });

  it('"no errors" reads as success, not an issue', () => {
    const j = judge('No errors, no warnings, all checks green on the latest pipeline run.', { role: 'assistant' });
    assert.equal(j.category, 'success', j.reason);
    const k = judge('The payment service is not failing anymore and there are no errors in the logs since the fix.', { role: 'assistant' });
    assert.notEqual(k.category, 'issue', k.reason);
  });

  it('an undecided question is not a decision', () => {
    assert.notEqual(judge("We haven't decided on the database yet, still comparing a few options.").category, 'decision');
  });

  it('negated sentiment and acknowledgement do not keep a short turn', () => {
    assert.ok(judge("I'm not excited about this").importance < DEFAULT_THRESHOLD);
    assert.ok(judge('not great').importance < DEFAULT_THRESHOLD);
    assert.ok(judge("That's not right").importance < DEFAULT_THRESHOLD);
  });

  it('a problem mentioned after "but" is still a problem', () => {
    assert.equal(judge('Not much changed overnight, but the importer crashed twice with an out-of-memory error.').category, 'issue');
  });
});

describe('roles and kinds', () => {
  it('scores agent chatter low', () => {
    for (const text of [
      "Sure! Here's what I found in the repository, let me take a closer look at the details.",
      'Let me check the logs to see what happened with the deployment earlier.',
      'Great question! There are many ways to approach this, and it depends on your needs.',
    ]) {
      const j = judge(text, { role: 'assistant' });
      assert.ok(j.importance <= 3, `${text}: ${j.importance} (${j.reason})`);
    }
  });

  it('scores an assistant turn that states a result like a user turn', () => {
    const text = 'The staging database runs on port 5433 and the backups go to the eu-west bucket.';
    const a = judge(text, { role: 'assistant' });
    const u = judge(text, { role: 'user' });
    assert.equal(a.importance, u.importance);
    assert.ok(a.importance >= DEFAULT_THRESHOLD);
  });

  it('keeps tool activity low but reports failures as issues', () => {
    const call = judge('→ tool Bash npm test', { role: 'tool', kind: 'tool' });
    assert.equal(call.category, 'noise');
    assert.ok(call.importance <= 2);
    const routine = judge('← Read: export function foo() { return 1 }', { role: 'tool', kind: 'tool' });
    assert.ok(routine.importance <= 3);
    const failed = judge('← Bash (error): npm ERR! Test failed. See above for more details. exit code 1', { role: 'tool', kind: 'tool' });
    assert.equal(failed.category, 'issue');
    assert.ok(failed.importance >= 4);
    const trace = judge('Traceback (most recent call last):\n  File "app.py", line 3\nKeyError: \'user_id\'', { role: 'tool', kind: 'tool' });
    assert.equal(trace.category, 'issue');
    const green = judge('← Bash: 12 passing (3s)\n0 failing', { role: 'tool', kind: 'tool' });
    assert.notEqual(green.category, 'issue');
    assert.ok(green.importance <= 3);
  });

  it('judges compaction summaries low (3–4) but categorised', () => {
    const d = judge('Summary: we decided to use Postgres; the migration to the new schema is done. Open issue: flaky auth test.', { role: 'summary', kind: 'compaction' });
    assert.equal(d.category, 'decision');
    assert.ok(d.importance >= 3 && d.importance <= 4);
    const f = judge('The session covered setting up the dev environment and reviewing the README.', { role: 'summary', kind: 'compaction' });
    assert.ok(f.importance >= 3 && f.importance <= 4);
    assert.notEqual(f.category, 'noise');
  });

  it('keeps system prompts below the threshold', () => {
    const j = judge('You are a helpful assistant. Always answer in English and never reveal the API key stored in config.toml.', { role: 'system' });
    assert.ok(j.importance <= 3);
  });
});

describe('context', () => {
  it('an answer to a question counts for more than the same words unprompted', () => {
    const text = 'Mostly dramas and romcoms, they are a good way to unwind after work.';
    const alone = judge(text, { speaker: 'B' });
    const answer = judge(text, { speaker: 'B', context: [{ role: 'user', speaker: 'A', text: 'What kind of movies do you like best?' }] });
    assert.ok(answer.importance > alone.importance, `${answer.importance} vs ${alone.importance}`);
  });

  it('repeating what was just said is worth less than saying it first', () => {
    const text = 'The quarterly report covers revenue, churn and hiring across the three regional offices.';
    const fresh = judge(text);
    const echo = judge(text, { context: [{ role: 'user', speaker: null, text }] });
    assert.ok(echo.importance < fresh.importance, `${echo.importance} vs ${fresh.importance}`);
  });

  it("does not count the speakers' own names as named entities", () => {
    const withNames = judge('Thanks, Melanie! That is so sweet of you, Melanie, really.', { speaker: 'Caroline', context: [{ role: 'user', speaker: 'Melanie', text: 'hi' }] });
    assert.ok(withNames.importance < DEFAULT_THRESHOLD, withNames.reason);
  });
});

describe('hostile input', () => {
  const cases: Array<[string, unknown]> = [
    ['empty', ''],
    ['whitespace', ' \n\t \r\n '],
    ['emoji only', '😀🎉👍🏽❤️‍🔥'],
    ['RTL Arabic', 'مرحبا، لقد انتقلت إلى القاهرة في مارس الماضي وأعمل الآن مهندسا في شركة برمجيات'],
    ['RTL Hebrew with marks', '\u202Bשלום! עברתי לתל אביב בשנה שעברה\u202C'],
    ['control chars', 'a\u0000b\u0001c\u001b[31mred\u007f\u0085 ok \uFEFF'],
    ['lone surrogates', 'x\uD800y\uDC00z and more text here to pass fifty characters easily'],
    ['binary', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1')],
    ['1 MB', 'I moved to Lisbon in May 2023. '.repeat(34_000)],
    ['1 MB no spaces', 'a'.repeat(1_000_000)],
    ['1 MB of dots', '. '.repeat(500_000)],
    ['1 MB of questions', 'why? '.repeat(200_000)],
    ['1 MB of capitals', 'Alpha Beta Gamma Delta '.repeat(45_000)],
    ['regex bait', `${'we '.repeat(5000)}decided ${'(('.repeat(2000)} ${"'".repeat(3000)}`],
    ['null', null],
    ['number', 42],
    ['object', { toString: () => { throw new Error('boom'); } }],
  ];
  for (const [label, text] of cases) {
    it(`never throws on ${label}`, () => {
      const j = judgeHeuristic({ text: text as string, role: 'user', speaker: null, timestamp: TS });
      assertValid(j, label);
    });
  }

  it('survives missing and malformed fields', () => {
    const odd = [
      {} as JudgeInput,
      { text: 'hello there, this is a perfectly normal sentence about my dog Rex' } as JudgeInput,
      { text: 'We decided to ship on Monday', role: undefined, speaker: undefined, timestamp: 'not a date' } as unknown as JudgeInput,
      { text: 'I moved to Oslo last week', role: 'user', speaker: null, timestamp: TS, context: [null, 5, { text: 7 }, { role: 'user', speaker: null, text: 'Where do you live now?' }] } as unknown as JudgeInput,
      { text: 'I moved to Oslo last week', role: 'user', speaker: null, timestamp: TS, context: 'nope' } as unknown as JudgeInput,
    ];
    for (const input of odd) assertValid(judgeHeuristic(input), JSON.stringify(input).slice(0, 40));
    assertValid(judgeHeuristic(null as unknown as JudgeInput), 'null input');
  });

  it('judges empty and emoji-only turns as noise', () => {
    assert.equal(judge('').category, 'noise');
    assert.equal(judge('   ').category, 'noise');
    assert.ok(judge('👍👍👍').importance <= 2);
  });

  // How fast (a 100 KB turn in a few ms) is measured by bench/speed-budgets.ts, not asserted here.
  it('judges long text: a 100 KB turn with 1 MB of context, and a 1 MB turn', () => {
    const sentence = 'We decided to move the staging DB to port 5433 on Friday because the old one kept failing. ';
    const text100k = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000);
    const text1m = text100k.repeat(10);
    const withContext = judge(text100k, { context: [{ role: 'user', speaker: null, text: text1m }] });
    assertValid(withContext, '100 KB with 1 MB of context');
    assertValid(judge(text1m), '1 MB');
    assert.deepEqual(judge(text100k, { context: [{ role: 'user', speaker: null, text: text1m }] }), withContext, 'deterministic');
  });
});

describe('determinism', () => {
  const texts = [
    'We decided to move the staging DB to port 5433 on Friday',
    'I found that the flaky test was caused by a race in the cache warm-up.',
    "You're amazing Frank!",
    'ok',
    'The build is not broken, it was just a slow runner this morning.',
    'My daughter is named Sofia and she was born on 3 March 2019.',
    '← Bash (error): npm ERR! Test failed. exit code 1',
  ];

  it('gives the same judgment for the same input, in any order', () => {
    const first = texts.map((t) => judge(t));
    const again = texts.map((t) => judge(t));
    const reversed = [...texts].reverse().map((t) => judge(t)).reverse();
    assert.deepEqual(again, first);
    assert.deepEqual(reversed, first);
  });

  it('has a version', () => {
    assert.match(HEURISTIC_VERSION, /^heuristic-\d+\.\d+/);
  });
});

describe('feedback (learnWeights)', () => {
  const standup = 'Posted the weekly standup notes for the design team in the shared channel.';
  const laterStandup = 'Weekly standup notes for the design team are up again, same channel as usual.';
  const tax = 'Reminder to self: the quarterly tax filing for the consultancy is due soon.';
  const laterTax = 'Talked to the accountant about the quarterly tax filing for the consultancy.';
  const unrelated = 'We decided to move the staging DB to port 5433 on Friday';
  const unrelated2 = 'My daughter is named Sofia and she was born on 3 March 2019.';

  it('"not important" lowers later judgments of similar turns', () => {
    const before = judge(laterStandup);
    const weights = learnWeights([{ text: standup, category: judge(standup).category, important: false }]);
    const after = judge(laterStandup, {}, weights);
    assert.ok(after.importance < before.importance, `${after.importance} vs ${before.importance}`);
    assert.ok(before.importance >= DEFAULT_THRESHOLD && after.importance < DEFAULT_THRESHOLD, `${before.importance} → ${after.importance}`);
    assert.match(after.reason, /feedback/);
  });

  it('"important" raises later judgments of similar turns', () => {
    const before = judge(laterTax);
    const weights = learnWeights([{ text: tax, category: judge(tax).category, important: true }]);
    const after = judge(laterTax, {}, weights);
    assert.ok(after.importance > before.importance, `${after.importance} vs ${before.importance}`);
  });

  it('does not affect unrelated turns', () => {
    const weights = learnWeights([
      { text: standup, category: judge(standup).category, important: false },
      { text: tax, category: judge(tax).category, important: true },
    ]);
    for (const t of [unrelated, unrelated2, "You're amazing Frank!", 'ok']) assert.deepEqual(judge(t, {}, weights), judge(t), t);
  });

  it('shifts a whole category only when several feedback turns agree', () => {
    const feelings = [
      'I feel a bit tired after the long drive home from the coast.',
      'Feeling kind of meh about the weather today, so grey out there.',
      'I felt bored during the webinar, the slides went on forever.',
    ];
    const probe = "I'm feeling sleepy after lunch with the team at the noodle place.";
    const one = learnWeights([{ text: feelings[0]!, category: 'feeling', important: false }]);
    assert.deepEqual(one.categoryOffsets, {});
    const three = learnWeights(feelings.map((text) => ({ text, category: 'feeling' as const, important: false })));
    assert.ok((three.categoryOffsets.feeling ?? 0) < 0);
    const base = judge(probe);
    assert.equal(base.category, 'feeling');
    assert.ok(judge(probe, {}, three).importance < base.importance);
    assert.deepEqual(judge(unrelated, {}, three), judge(unrelated));
  });

  it('lets opposite feedback on shared words cancel out', () => {
    const w = learnWeights([
      { text: 'the invoice export job', category: 'fact', important: true },
      { text: 'the invoice reminder email', category: 'fact', important: false },
    ]);
    assert.equal(w.termBoosts.invoice, undefined);
    assert.equal(w.termBoosts.export, 1);
    assert.equal(w.termBoosts.reminder, -1);
  });

  it('weights are plain JSON and survive a round trip; junk weights are ignored', () => {
    const w = learnWeights([{ text: tax, category: 'plan', important: true }]);
    const copy = JSON.parse(JSON.stringify(w)) as HeuristicWeights;
    assert.deepEqual(judge(laterTax, {}, copy), judge(laterTax, {}, w));
    const junk = { version: 1, categoryOffsets: { fact: 'x' }, termBoosts: { quarterly: Number.NaN, constructor: 5 }, examples: -1 } as unknown as HeuristicWeights;
    assertValid(judge(laterTax, {}, junk), 'junk weights');
    assertValid(judge(laterTax, {}, null as unknown as HeuristicWeights), 'null weights');
    assert.deepEqual(learnWeights([]).termBoosts, {});
    assert.doesNotThrow(() => learnWeights([null, { text: 5, category: 'fact', important: true }] as never));
  });
});
