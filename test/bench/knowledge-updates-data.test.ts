// The knowledge-update benchmark's generator: the same seed gives the same data, and every
// question's answer is what the transcripts say (the newest statement, or the newest one on the
// as-of date), read back from the lines themselves rather than from the generator's timelines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayDate, factTurns, generate, jsonl, names, START_DAY, WEEKS, type ChatLine, type Persona } from '../../bench/knowledge-updates-data.js';

const SMALL = 10;

test('the same seed gives the same bytes; another seed gives other data', () => {
  const a = generate(25, SMALL);
  const b = generate(25, SMALL);
  assert.deepEqual(a, b);
  assert.equal(a.personas.map((p) => jsonl(p.main) + jsonl(p.late)).join(''), b.personas.map((p) => jsonl(p.main) + jsonl(p.late)).join(''));
  const c = generate(26, SMALL);
  assert.notDeepEqual(c.personas.map((p) => p.questions), a.personas.map((p) => p.questions));
});

/** The value the lines say at a moment: the newest user line naming any of the values (ties: the later line). */
function saidAt(lines: readonly ChatLine[], values: readonly string[], until: string): { line: ChatLine; value: string } | null {
  let best: ChatLine | null = null;
  for (const l of lines) {
    if (l.role !== 'user' || l.timestamp > until || !values.some((v) => names(l.content, v))) continue;
    if (!best || l.timestamp >= best.timestamp) best = l;
  }
  if (!best) return null;
  // A change naming the old value too ("from 5433 to 6543") states the last value it names.
  const named = values.map((v) => ({ v, at: best!.content.search(new RegExp(v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')) })).filter((x) => x.at >= 0 && names(best!.content, x.v));
  return { line: best, value: named.sort((x, y) => y.at - x.at)[0]!.v };
}

test('every answer is what the transcripts say, now or on the as-of date', () => {
  const { personas } = generate(25, SMALL);
  let asOf = 0;
  for (const p of personas) {
    const lines = [...p.main, ...p.late];
    for (const q of p.questions) {
      const until = q.type === 'current' ? '9999' : `${q.date}T23:59:59.999Z`;
      const said = saidAt(lines, q.values, until);
      assert.ok(said, `${q.id}: no line states any value`);
      assert.equal(said.value, q.answer, `${q.id}: the lines say ${said.value} (${said.line.content}), the question expects ${q.answer}`);
      if (q.type === 'as-of') {
        asOf++;
        assert.match(q.text, new RegExp(`on ${q.date}\\?$`));
        // The as-of date lies between two statements: a later value is stated after it.
        assert.ok(lines.some((l) => l.timestamp > until && names(l.content, q.values.at(-1)!)), `${q.id}: nothing changes after the date`);
      }
    }
  }
  assert.ok(asOf >= SMALL, `${asOf} as-of questions`);
});

test('each timeline gets one current question and one as-of question per change', () => {
  for (const p of generate(25, SMALL).personas) {
    for (const t of p.timelines) {
      const qs = p.questions.filter((q) => q.timeline === t.id);
      assert.equal(qs.filter((q) => q.type === 'current').length, 1);
      assert.equal(qs.filter((q) => q.type === 'as-of').length, t.values.length - 1);
      assert.ok(t.values.length >= 2, `${t.id} never changes`);
      for (const v of t.values) for (const w of t.values) if (v !== w) assert.ok(!names(v, w), `${t.id}: ${w} is found inside ${v}`);
    }
  }
});

test('values are stated only by the user, never in filler or assistant turns of other timelines', () => {
  for (const p of generate(25, SMALL).personas) {
    const all = p.timelines.flatMap((t) => t.values.map((v) => ({ t: t.id, v })));
    for (const l of [...p.main, ...p.late]) {
      const hits = all.filter((x) => names(l.content, x.v));
      if (l.role === 'assistant') assert.deepEqual(hits, [], `assistant line names ${JSON.stringify(hits)}`);
      assert.ok(new Set(hits.map((h) => h.t)).size <= 1, `one line names two timelines: ${l.content}`);
    }
  }
});

test('transcripts span the weeks in order, and late files hold only turns older than the newest captured', () => {
  const { personas } = generate(25, SMALL);
  const end = `${dayDate(WEEKS * 7)}T00:00:00Z`;
  const withLate: Persona[] = personas.filter((p) => p.late.length > 0);
  assert.ok(withLate.length >= 1, 'no late file at this scale');
  for (const p of personas) {
    const ts = p.main.map((l) => l.timestamp);
    assert.deepEqual(ts, [...ts].sort(), `${p.slug}: main file out of order`);
    assert.ok(ts[0]! >= START_DAY && ts.at(-1)! < end);
    assert.ok(ts.at(-1)! >= `${dayDate((WEEKS - 2) * 7)}`, `${p.slug}: the conversation stops early`);
    assert.equal(new Set(p.main.map((l) => l.id)).size, p.main.length);
    for (const l of [...p.main, ...p.late]) assert.ok(l.content.length > 0 && l.content.length < 300);
  }
  for (const p of withLate) {
    const late = p.timelines.find((t) => t.lateValues > 0)!;
    assert.ok(p.late.at(-1)!.timestamp < p.main.at(-1)!.timestamp);
    // The old value is only in the late file; the newer one only in the main file.
    assert.ok(p.late.some((l) => names(l.content, late.values[0]!)));
    assert.ok(!p.main.some((l) => names(l.content, late.values[0]!)));
    assert.ok(!p.late.some((l) => names(l.content, late.values[1]!)));
  }
});

test('names matches whole values only', () => {
  assert.ok(names('we run Python 3.11 now', 'Python 3.11'));
  assert.ok(!names('we run Python 3.11 now', 'Python 3.1'));
  assert.ok(!names('Neovim all day', 'Vim'));
  assert.ok(names('moved to amber-1.heron.internal.', 'amber-1.heron.internal'));
  assert.ok(!names('moved to amber-12.heron.internal', 'amber-1.heron.internal'));
  assert.ok(!names('port 54330', '5433'));
  assert.ok(names('PORT 5433, not the default', '5433'));
  assert.ok(!names('', '5433'));
  assert.ok(names('a (weird) value [x]', '(weird) value [x]'));
});

test('factTurns: n turns in time order, the same for a seed, with changes among them', () => {
  const a = [...factTurns(7, 500)];
  assert.deepEqual(a, [...factTurns(7, 500)]);
  assert.equal(a.length, 500);
  assert.deepEqual(a.map((l) => l.timestamp), a.map((l) => l.timestamp).sort());
  assert.equal(new Set(a.map((l) => l.id)).size, 500);
  assert.ok(a.filter((l) => /\b(now|moved|switched|upgraded|migrated|started|joined|bumped)\b/i.test(l.content)).length > 25);
  assert.notDeepEqual(a, [...factTurns(8, 500)]);
  assert.deepEqual([...factTurns(7, 0)], []);
});
