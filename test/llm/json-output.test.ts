// Reading the model's JSON: tolerant of fences and a stray sentence, strict about the shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { jsonSchemaOf, parseJsonOutput } from '../../src/llm/json-output.js';
import { llmFailureKind } from '../../src/llm/errors.js';

const schema = z.object({ score: z.number().int().min(1).max(10) });
const res = (text: string) => ({ text, provider: 'ollama', model: 'm' });

test('plain, fenced and wrapped JSON all parse', () => {
  assert.deepEqual(parseJsonOutput(res('{"score": 7}'), schema), { score: 7 });
  assert.deepEqual(parseJsonOutput(res('```json\n{"score": 7}\n```'), schema), { score: 7 });
  assert.deepEqual(parseJsonOutput(res('Here you go: {"score": 7} Hope it helps.'), schema), { score: 7 });
});

test('prose and wrong shapes are invalid-output errors that quote the text', () => {
  assert.throws(
    () => parseJsonOutput(res('I would say seven.'), schema),
    (err) => llmFailureKind(err) === 'invalid-output' && /ollama \(m\) answered with text that is not JSON: I would say seven\./.test((err as Error).message),
  );
  assert.throws(
    () => parseJsonOutput(res('{"score": 11}'), schema),
    (err) => llmFailureKind(err) === 'invalid-output' && /wrong shape: score: /.test((err as Error).message),
  );
});

test('jsonSchemaOf produces an object schema with required keys', () => {
  const s = jsonSchemaOf('verdict', schema);
  assert.equal(s.name, 'verdict');
  assert.equal(s.schema.type, 'object');
  assert.deepEqual(s.schema.required, ['score']);
});
