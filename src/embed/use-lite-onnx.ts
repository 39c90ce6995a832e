// Rebuilds USE lite's TF.js graph as an ONNX model with the same weights (its matrices in int8,
// see `dense` below), so ONNX Runtime's native kernels can run it. TF.js's WebAssembly backend has
// no threads in Node and runs the attention's batched matmuls at ~2 GFLOP/s: that is where capture
// with embeddings spent its time.
//
// The TF graph works on sparse inputs and gathers/scatters the real tokens around every layer; here
// the batch is dense [B, T] with a 0/1 mask. Padded positions are masked out of attention and
// pooling, so they never reach a real token's value. The float graph matched TF.js to float error;
// with int8 matrices the vectors are within ~0.998 cosine of TF.js's (test/embed/use-lite-onnx.test.ts).
import { CairnError, ERROR_CODES } from '../core/errors.js';
import { encodeOnnxModel, onnx, valueInfo } from './onnx-model.js';
import type { UseLiteArtifacts, WeightTensor } from './use-lite-weights.js';

const ENCODE = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const STACK = `${ENCODE}TransformerStack/`;
const KERNELS = 'module/Encoder_en/KonaTransformer/Encode/';
const LAYERS = 2;
/** ONNX Runtime's own operators (DynamicQuantizeMatMul), which its CPU build has. */
const MS_DOMAIN = 'com.microsoft';
// Changing the graph below? Bump USE_LITE_GRAPH_VERSION (use-lite-graph-cache.ts) so cached
// copies of the old graph are rebuilt.

/** Tokens the model reads per text; later ones are dropped, as the TF graph's ClipToMaxLength does. */
export interface UseLiteGraph {
  model: Uint8Array;
  maxTokens: number;
}

type AttrValue = number | number[] | { float: number };

class GraphBuilder {
  readonly nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  readonly initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private next = 0;

  constant(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims,
        dataType: data instanceof Float32Array ? onnx.TensorProto.DataType.FLOAT : onnx.TensorProto.DataType.INT64,
        rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      }),
    );
    return name;
  }

  /**
   * A [K, N] weight as int8, one scale per output column (symmetric: max |w| of the column maps to
   * 127), for com.microsoft's DynamicQuantizeMatMul. Returns the names of the weight, its scales
   * and its zero points (all 0).
   */
  int8Columns(name: string, dims: [number, number], data: Float32Array): [string, string, string] {
    const [rows, cols] = dims;
    const scales = new Float32Array(cols);
    for (let c = 0; c < cols; c++) {
      let max = 0;
      for (let r = 0; r < rows; r++) max = Math.max(max, Math.abs(data[r * cols + c]!));
      scales[c] = max > 0 ? max / 127 : 1;
    }
    const q = new Int8Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(data[r * cols + c]! / scales[c]!)));
    const { INT8 } = onnx.TensorProto.DataType;
    this.initializers.push(onnx.TensorProto.create({ name: `${name}/int8`, dims, dataType: INT8, rawData: new Uint8Array(q.buffer) }));
    this.initializers.push(onnx.TensorProto.create({ name: `${name}/int8_zero`, dims: [cols], dataType: INT8, rawData: new Uint8Array(cols) }));
    return [`${name}/int8`, this.constant(`${name}/int8_scale`, [cols], scales), `${name}/int8_zero`];
  }

  ints(values: number[]): string {
    return this.constant(`i64_${this.next++}`, [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  scalar(value: number): string {
    return this.constant(`f32_${this.next++}`, [], Float32Array.of(value));
  }

  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputs = 1, domain = ''): string[] {
    const names = Array.from({ length: outputs }, () => `t${this.next++}`);
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v })
        : typeof v === 'number'
          ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: v })
          : onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v.float }),
    );
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: names, attribute, ...(domain ? { domain } : {}) }));
    return names;
  }

  /** The single output of an op. */
  one(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, domain = ''): string {
    return this.op(opType, inputs, attrs, 1, domain)[0]!;
  }
}

function tensor(artifacts: UseLiteArtifacts, name: string, shape?: number[]): WeightTensor {
  const t = artifacts.tensors.get(name);
  if (!t) throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite weights lack ${name}: the model package changed`);
  if (shape && (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i]))) {
    throw new CairnError(ERROR_CODES.EMBEDDER, `use-lite weight ${name} has shape [${t.shape}], expected [${shape}]`);
  }
  return t;
}

function scalarOf(artifacts: UseLiteArtifacts, name: string): number {
  return tensor(artifacts, name, []).data[0]!;
}

function floats(t: WeightTensor): Float32Array {
  if (!(t.data instanceof Float32Array)) throw new CairnError(ERROR_CODES.EMBEDDER, 'use-lite weight is not float32');
  return t.data;
}

/** Builds the ONNX model: inputs `ids` (int64 [B, T]) and `mask` (float [B, T]); output `embedding` [B, 512]. */
export function buildUseLiteGraph(artifacts: UseLiteArtifacts): UseLiteGraph {
  const g = new GraphBuilder();
  /** A weight's dims as a matmul reads them: Conv2D kernels are [1, 1, in, out], the same bytes as [in, out]. */
  const dimsOf = (name: string, shape?: number[]): number[] => {
    const dims = shape ?? tensor(artifacts, name, shape).shape;
    return dims.length === 4 && dims[0] === 1 && dims[1] === 1 ? dims.slice(2) : dims;
  };
  const w = (name: string, shape?: number[]): string => g.constant(name, dimsOf(name, shape), floats(tensor(artifacts, name, shape)));
  /**
   * x · kernel + bias. The kernels are int8 (a scale per output column) and the input is quantised
   * per run (DynamicQuantizeMatMul): a run reads a quarter of the bytes (a short query's run was
   * mostly reading ~12 MB of float weights: 0.9 ms for a one-word text), ~2.4× less CPU for a
   * search's query, vectors within 0.998 cosine of the float graph's (docs/SEARCH.md).
   */
  const dense = (input: string, kernel: string, biasName: string): string => {
    const [rows, cols] = dimsOf(kernel) as [number, number];
    const [q, scale, zero] = g.int8Columns(kernel, [rows, cols], floats(tensor(artifacts, kernel)));
    return g.one('DynamicQuantizeMatMul', [input, q, scale, zero, w(biasName)], {}, MS_DOMAIN);
  };

  const embeddings = tensor(artifacts, 'module/Embeddings_en');
  const [, modelDim] = embeddings.shape as [number, number];
  const maxTokens = scalarOf(artifacts, `${ENCODE.replace('Encode/', '')}ClipToMaxLength/Less/y`);
  const heads = scalarOf(artifacts, `${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`);
  const epsilon = scalarOf(artifacts, `${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const maskBias = scalarOf(artifacts, `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`);
  const l2Floor = scalarOf(artifacts, 'module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');

  // Sinusoidal timing signal, one row per position, computed once like the TF graph does at run time.
  const inv = floats(tensor(artifacts, `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`));
  const half = inv.length;
  if (half * 2 !== modelDim) throw new CairnError(ERROR_CODES.EMBEDDER, 'use-lite timing signal does not match the embedding width');
  const timing = new Float32Array(maxTokens * modelDim);
  for (let p = 0; p < maxTokens; p++) {
    for (let k = 0; k < half; k++) {
      const angle = Math.fround(p * inv[k]!);
      timing[p * modelDim + k] = Math.sin(angle);
      timing[p * modelDim + half + k] = Math.cos(angle);
    }
  }

  const ids = 'ids';
  const mask = 'mask';
  const seqLen = g.one('Gather', [g.one('Shape', [ids]), g.ints([1])], { axis: 0 });
  const timingRows = g.one('Slice', [g.constant('timing', [maxTokens, modelDim], timing), g.ints([0]), seqLen, g.ints([0])]);
  const mask3 = g.one('Unsqueeze', [mask, g.ints([-1])]);
  // The TF graph adds the scattered embeddings to (embeddings + timing) scattered: 2·E + P on real tokens.
  const tokens = g.one('Gather', [g.constant('embeddings', embeddings.shape, floats(embeddings)), ids], { axis: 0 });
  let x = g.one('Mul', [g.one('Add', [g.one('Add', [tokens, tokens]), timingRows]), mask3]);
  const bias = g.one('Unsqueeze', [g.one('Mul', [g.one('Sub', [g.scalar(1), mask]), g.scalar(maskBias)]), g.ints([1, 2])]);

  for (let layer = 0; layer < LAYERS; layer++) {
    const L = `Layer_${layer}/TransformerLayer/`;
    const qkvKernel = tensor(artifacts, `${KERNELS}${L}MultiheadAttention/qkv_transform_single/kernel/part_0`);
    const width = qkvKernel.shape[2]!;
    const headSize = scalarOf(artifacts, `${STACK}${L}MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    const scale = scalarOf(artifacts, `${STACK}${L}MultiheadAttention/mul/y`);
    const layerNorm = (input: string, prefix: string, dim: number): string =>
      g.one(
        'LayerNormalization',
        [input, w(`${ENCODE}${L}${prefix}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`, [dim]), w(`${ENCODE}${L}${prefix}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, [dim])],
        { axis: -1, epsilon: { float: epsilon } },
      );

    const normed = layerNorm(x, '', width);
    const qkv = dense(normed, `${KERNELS}${L}MultiheadAttention/qkv_transform_single/kernel/part_0`, `${ENCODE}${L}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`);
    const [q, k, v] = g.op('Split', [qkv, g.ints([width, width, width])], { axis: -1 }, 3) as [string, string, string];
    const split = (t: string, perm: number[]): string => g.one('Transpose', [g.one('Reshape', [t, g.ints([0, 0, heads, headSize])])], { perm });
    const logits = g.one('MatMul', [g.one('Mul', [split(q, [0, 2, 1, 3]), g.scalar(scale)]), split(k, [0, 2, 3, 1])]);
    const weights = g.one('Softmax', [g.one('Add', [logits, bias])], { axis: -1 });
    const context = g.one('Reshape', [g.one('Transpose', [g.one('MatMul', [weights, split(v, [0, 2, 1, 3])])], { perm: [0, 2, 1, 3] }), g.ints([0, 0, heads * headSize])]);
    const attended = dense(context, `${KERNELS}${L}MultiheadAttention/output_transform_single/kernel/part_0`, `${ENCODE}${L}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`);
    // The first layer widens the stream: its residual goes through a projection.
    const residual = layer === 0 ? dense(x, `${ENCODE}${L}dense/kernel/ConcatPartitions/concat`, `${ENCODE}${L}dense/bias/ConcatPartitions/concat`) : x;
    const y = g.one('Add', [attended, residual]);
    const outWidth = tensor(artifacts, `${STACK}${L}FFN/conv2/Tensordot/Reshape_1`).shape[1]!;
    const hidden = g.one('Relu', [dense(layerNorm(y, 'FFN/', outWidth), `${STACK}${L}FFN/conv1/Tensordot/Reshape_1`, `${ENCODE}${L}FFN/conv1/bias/ConcatPartitions/concat`)]);
    x = g.one('Add', [y, dense(hidden, `${STACK}${L}FFN/conv2/Tensordot/Reshape_1`, `${ENCODE}${L}FFN/conv2/bias/ConcatPartitions/concat`)]);
  }

  // Mean over the real tokens, a tanh layer, then unit length.
  const summed = g.one('ReduceSum', [g.one('Mul', [x, mask3]), g.ints([1])], { keepdims: 0 });
  const count = g.one('Max', [g.one('ReduceSum', [mask, g.ints([1])], { keepdims: 1 }), g.scalar(1)]);
  const pooled = g.one('Div', [summed, count]);
  const tanh = g.one('Tanh', [dense(pooled, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights', 'module/Encoder_en/hidden_layers/tanh_layer_0/bias')]);
  const norm = g.one('Max', [g.one('ReduceSum', [g.one('Mul', [tanh, tanh]), g.ints([1])], { keepdims: 1 }), g.scalar(l2Floor)]);
  const out = g.one('Mul', [tanh, g.one('Reciprocal', [g.one('Sqrt', [norm])])]);
  g.nodes.push(onnx.NodeProto.create({ opType: 'Identity', input: [out], output: ['embedding'] }));

  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const model = encodeOnnxModel({
    name: 'use-lite',
    opset: 17,
    extraOpsets: [{ domain: MS_DOMAIN, version: 1 }],
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [valueInfo(ids, INT64, ['batch', 'tokens']), valueInfo(mask, FLOAT, ['batch', 'tokens'])],
    outputs: [valueInfo('embedding', FLOAT, ['batch', tensor(artifacts, 'module/Encoder_en/hidden_layers/tanh_layer_0/bias').shape[0]!])],
  });
  return { model, maxTokens };
}
