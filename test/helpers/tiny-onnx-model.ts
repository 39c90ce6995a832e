// Builds a tiny but real transformers.js feature-extraction model in a folder, with no download:
// an ONNX graph (embedding lookup masked by attention_mask → last_hidden_state [batch, seq, DIMS]),
// a BERT-style WordPiece tokenizer.json, tokenizer_config.json and config.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { encodeOnnxModel, onnx, valueInfo } from '../../src/embed/onnx-model.js';
import { join } from 'node:path';

export const TINY_DIMS = 8;

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = ['rate', 'limiting', 'api', 'throttling', 'banana', 'bread', 'recipe', 'memory', 'agent', 'the', 'a', 'is'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
/** Token strings by id: specials, whole words, then single characters (so any word tokenizes). */
export const TINY_VOCAB: string[] = [...SPECIALS, ...WORDS, ...LETTERS, ...LETTERS.map((c) => `##${c}`)];

const enc = new TextEncoder();
const { FLOAT, INT64 } = onnx.TensorProto.DataType;
const tensor = (name: string, dataType: number, dims: number[], rawData: Uint8Array) => onnx.TensorProto.create({ name, dataType, dims, rawData });
const node = (op: string, input: string[], output: string[], intAttrs: Record<string, number> = {}) =>
  onnx.NodeProto.create({
    input,
    output,
    name: `${op}_${output[0]}`,
    opType: op,
    attribute: Object.entries(intAttrs).map(([name, i]) => ({ name, i, type: onnx.AttributeProto.AttributeType.INT })),
  });

/** Deterministic pseudo-random embedding table, so every token has its own direction. */
function embeddingTable(rows: number, cols: number, seed = 1234): Float32Array {
  const out = new Float32Array(rows * cols);
  let s = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  return out;
}

/** The embedding row of a token, as the ONNX graph holds it (for expected-value checks). */
export function tinyEmbeddingRow(token: string): Float32Array {
  const id = TINY_VOCAB.indexOf(token);
  if (id < 0) throw new Error(`token ${token} is not in the tiny vocabulary`);
  return embeddingTable(TINY_VOCAB.length, TINY_DIMS).slice(id * TINY_DIMS, (id + 1) * TINY_DIMS);
}

/** The serialized ONNX ModelProto (IR 8, opset 13). */
export function buildTinyOnnx(): Uint8Array {
  const table = embeddingTable(TINY_VOCAB.length, TINY_DIMS);
  const axes = new BigInt64Array([2n]);
  return encodeOnnxModel(
    {
      name: 'tiny-embedder',
      opset: 13,
      nodes: [
        node('Gather', ['embeddings', 'input_ids'], ['gathered'], { axis: 0 }),
        node('Cast', ['attention_mask'], ['mask_f'], { to: FLOAT }),
        node('Unsqueeze', ['mask_f', 'unsqueeze_axes'], ['mask_3d']),
        node('Mul', ['gathered', 'mask_3d'], ['last_hidden_state']),
      ],
      initializers: [
        tensor('embeddings', FLOAT, [TINY_VOCAB.length, TINY_DIMS], new Uint8Array(table.buffer)),
        tensor('unsqueeze_axes', INT64, [1], new Uint8Array(axes.buffer)),
      ],
      inputs: [valueInfo('input_ids', INT64, ['batch', 'sequence']), valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
      outputs: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', TINY_DIMS])],
    },
    'cairn-tests',
  );
}

function tokenizerJson(): unknown {
  const special = (content: string) => ({
    id: TINY_VOCAB.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tok = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tok('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, tok('[SEP]')],
      pair: [tok('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, tok('[SEP]'), { Sequence: { id: 'B', type_id: 1 } }, tok('[SEP]')],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [TINY_VOCAB.indexOf(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i])),
    },
  };
}

/** The files of the model, by path relative to the model folder. */
export function tinyModelFiles(options: { quantized?: boolean } = {}): Map<string, Uint8Array> {
  const json = (v: unknown) => enc.encode(JSON.stringify(v, null, 2));
  const onnx = buildTinyOnnx();
  const files = new Map<string, Uint8Array>([
    [
      'config.json',
      json({
        model_type: 'bert',
        architectures: ['BertModel'],
        hidden_size: TINY_DIMS,
        vocab_size: TINY_VOCAB.length,
        num_hidden_layers: 1,
        num_attention_heads: 1,
        max_position_embeddings: 64,
        pad_token_id: 0,
      }),
    ],
    ['tokenizer.json', json(tokenizerJson())],
    [
      'tokenizer_config.json',
      json({
        tokenizer_class: 'BertTokenizer',
        do_lower_case: true,
        model_max_length: 64,
        cls_token: '[CLS]',
        sep_token: '[SEP]',
        pad_token: '[PAD]',
        unk_token: '[UNK]',
        mask_token: '[MASK]',
      }),
    ],
    ['onnx/model.onnx', onnx],
  ]);
  // Same weights under the q8 file name: enough to exercise dtype 'q8' file selection.
  if (options.quantized) files.set('onnx/model_quantized.onnx', onnx);
  return files;
}

/** Writes the model as `<root>/<modelName>/…` (the layout transformers.js reads) and returns its folder. */
export function writeTinyModel(root: string, modelName: string, options: { quantized?: boolean } = {}): string {
  const dir = join(root, modelName);
  for (const [rel, data] of tinyModelFiles(options)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), data);
  }
  return dir;
}
