/**
 * Just enough of the protobuf wire format and of onnx.proto to write a small ONNX model by hand, so tests need
 * no Python and no download. Field numbers are those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, ...).
 */

type Field = Uint8Array;

function varint(value: number | bigint): number[] {
  let rest = BigInt(value);
  if (rest < 0n) rest += 1n << 64n; // negative int64 as two's complement, as protobuf does
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0n);
  return bytes;
}

const key = (field: number, wireType: 0 | 2) => varint((field << 3) | wireType);

/** A varint field (int32, int64, enum). */
export const int = (field: number, value: number | bigint): Field => Uint8Array.from([...key(field, 0), ...varint(value)]);

/** A length-delimited field: bytes, string or an embedded message. */
export function bytes(field: number, payload: Uint8Array | string): Field {
  const data = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const head = Uint8Array.from([...key(field, 2), ...varint(data.length)]);
  return concat([head, data]);
}

/** An embedded message made of the given fields. */
export const message = (field: number, ...fields: Field[]): Field => bytes(field, concat(fields));

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// onnx.TensorProto.DataType
export const FLOAT = 1;
export const INT64 = 7;

/** A TensorProto (as GraphProto.initializer, field 5) holding `values` in raw little-endian form. */
export function initializer(name: string, dataType: typeof FLOAT | typeof INT64, dims: number[], values: number[]): Field {
  const raw = new DataView(new ArrayBuffer(values.length * (dataType === FLOAT ? 4 : 8)));
  values.forEach((value, index) => (dataType === FLOAT ? raw.setFloat32(index * 4, value, true) : raw.setBigInt64(index * 8, BigInt(value), true)));
  return message(5, ...dims.map((dim) => int(1, dim)), int(2, dataType), bytes(8, name), bytes(9, new Uint8Array(raw.buffer)));
}

/** A ValueInfoProto for a graph input (field 11) or output (12): a tensor whose dims are numbers or names. */
export function valueInfo(field: 11 | 12, name: string, elemType: number, dims: (number | string)[]): Field {
  const shape = dims.map((dim) => message(1, typeof dim === "number" ? int(1, dim) : bytes(2, dim)));
  const tensorType = message(1, int(1, elemType), message(2, ...shape));
  return message(field, bytes(1, name), message(2, tensorType));
}

/** A NodeProto (GraphProto.node, field 1); `ints` are INT attributes such as Cast's `to`. */
export function node(opType: string, inputs: string[], outputs: string[], ints: Record<string, number> = {}): Field {
  const attributes = Object.entries(ints).map(([name, value]) => message(5, bytes(1, name), int(3, value), int(20, 2 /* INT */)));
  return message(
    1,
    ...inputs.map((input) => bytes(1, input)),
    ...outputs.map((output) => bytes(2, output)),
    bytes(3, `${opType}_${outputs[0]}`),
    bytes(4, opType),
    ...attributes,
  );
}

/** A ModelProto around one graph, importing the default ONNX domain at `opset`. */
export function model(graph: { name: string; fields: Field[] }, opset: number): Uint8Array {
  return concat([
    int(1, 8), // ir_version 8: what opsets 13-17 were released with
    message(8, bytes(1, ""), int(2, opset)),
    bytes(2, "sage-testkit"),
    message(7, bytes(2, graph.name), ...graph.fields),
  ]);
}
