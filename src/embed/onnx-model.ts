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
    opsetImport: [{ domain: '', version: g.opset }],
    graph: { name: g.name, node: g.nodes, initializer: g.initializers, input: g.inputs, output: g.outputs },
  });
  return onnx.ModelProto.encode(model).finish();
}
