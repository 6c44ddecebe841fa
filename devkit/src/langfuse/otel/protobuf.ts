/**
 * OTLP/HTTP protobuf (`application/x-protobuf`) trace exports decoded into the OTLP/JSON shape the mapper
 * reads: hex ids, nanosecond times and 64-bit integers as decimal strings, bytes as base64. Exporters that
 * speak protobuf by default (`@opentelemetry/exporter-trace-otlp-proto`, e.g. OpenLLMetry's) reach Langfuse
 * this way. Only the fields of `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` the
 * mapper uses are kept; unknown fields are skipped as the protobuf rules demand.
 */

export class ProtobufDecodeError extends Error {}

type Json = Record<string, unknown>;

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

class Reader {
  pos = 0;
  constructor(
    private readonly buf: Uint8Array,
    readonly end: number = buf.length,
  ) {}

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufDecodeError('truncated varint');
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result & 0xffffffffffffffffn;
    }
    throw new ProtobufDecodeError('varint longer than 10 bytes');
  }

  small(): number {
    return Number(this.varint() & 0xffffffffn);
  }

  fixed64(): bigint {
    const bytes = this.take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  }

  double(): number {
    const bytes = this.take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
  }

  fixed32(): number {
    const bytes = this.take(4);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  }

  bytes(): Uint8Array {
    const length = this.varint();
    if (length > BigInt(this.end - this.pos))
      throw new ProtobufDecodeError('length-delimited field runs past its message');
    return this.take(Number(length));
  }

  string(): string {
    return new TextDecoder('utf-8', { fatal: false }).decode(this.bytes());
  }

  message(): Reader {
    const bytes = this.bytes();
    return new Reader(bytes);
  }

  private take(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new ProtobufDecodeError('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Skips a field this decoder does not read. */
  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_I64) this.take(8);
    else if (wire === WIRE_LEN) this.bytes();
    else if (wire === WIRE_I32) this.take(4);
    else throw new ProtobufDecodeError(`unsupported wire type ${wire}`);
  }
}

/** Calls `field(number, wire)` for every field of the message; the callback reads it or returns false to skip it. */
function fields(reader: Reader, field: (num: number, wire: number) => boolean): void {
  while (!reader.done()) {
    const tag = reader.small();
    const num = tag >>> 3;
    const wire = tag & 7;
    if (num === 0) throw new ProtobufDecodeError('field number 0');
    if (!field(num, wire)) reader.skip(wire);
  }
}

function expectWire(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new ProtobufDecodeError(`${what}: wire type ${actual}, expected ${expected}`);
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const signed64 = (v: bigint) => (v >= 1n << 63n ? v - (1n << 64n) : v);

function anyValue(r: Reader, depth: number): Json {
  if (depth > 32) throw new ProtobufDecodeError('AnyValue nested too deeply');
  let value: Json = {};
  fields(r, (num, wire) => {
    switch (num) {
      case 1:
        expectWire(wire, WIRE_LEN, 'string_value');
        value = { stringValue: r.string() };
        return true;
      case 2:
        expectWire(wire, WIRE_VARINT, 'bool_value');
        value = { boolValue: r.varint() !== 0n };
        return true;
      case 3:
        expectWire(wire, WIRE_VARINT, 'int_value');
        value = { intValue: signed64(r.varint()).toString() };
        return true;
      case 4:
        expectWire(wire, WIRE_I64, 'double_value');
        value = { doubleValue: r.double() };
        return true;
      case 5:
        expectWire(wire, WIRE_LEN, 'array_value');
        value = { arrayValue: { values: repeated(r.message(), (m) => anyValue(m, depth + 1)) } };
        return true;
      case 6:
        expectWire(wire, WIRE_LEN, 'kvlist_value');
        value = { kvlistValue: { values: repeated(r.message(), (m) => keyValue(m, depth + 1)) } };
        return true;
      case 7:
        expectWire(wire, WIRE_LEN, 'bytes_value');
        value = { bytesValue: Buffer.from(r.bytes()).toString('base64') };
        return true;
      default:
        return false;
    }
  });
  return value;
}

/** The messages of field 1 of `r` (ArrayValue.values, KeyValueList.values), each read by `read`. */
function repeated(r: Reader, read: (message: Reader) => Json): Json[] {
  const values: Json[] = [];
  fields(r, (num, wire) => {
    if (num !== 1) return false;
    expectWire(wire, WIRE_LEN, 'values');
    values.push(read(r.message()));
    return true;
  });
  return values;
}

function keyValue(r: Reader, depth = 0): Json {
  const kv: Json = { key: '', value: {} };
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'key'), (kv.key = r.string()), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'value'), (kv.value = anyValue(r.message(), depth)), true);
    return false;
  });
  return kv;
}

function event(r: Reader): Json {
  const e: Json = { timeUnixNano: '0', name: '', attributes: [], droppedAttributesCount: 0 };
  const attributes: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1)
      return (expectWire(wire, WIRE_I64, 'time_unix_nano'), (e.timeUnixNano = r.fixed64().toString()), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'name'), (e.name = r.string()), true);
    if (num === 3) return (expectWire(wire, WIRE_LEN, 'attributes'), attributes.push(keyValue(r.message())), true);
    if (num === 4)
      return (expectWire(wire, WIRE_VARINT, 'dropped_attributes_count'), (e.droppedAttributesCount = r.small()), true);
    return false;
  });
  e.attributes = attributes;
  return e;
}

function link(r: Reader): Json {
  const l: Json = { traceId: '', spanId: '', attributes: [], droppedAttributesCount: 0 };
  const attributes: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'trace_id'), (l.traceId = hex(r.bytes())), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'span_id'), (l.spanId = hex(r.bytes())), true);
    if (num === 3) return (expectWire(wire, WIRE_LEN, 'trace_state'), (l.traceState = r.string()), true);
    if (num === 4) return (expectWire(wire, WIRE_LEN, 'attributes'), attributes.push(keyValue(r.message())), true);
    if (num === 5)
      return (expectWire(wire, WIRE_VARINT, 'dropped_attributes_count'), (l.droppedAttributesCount = r.small()), true);
    return false;
  });
  l.attributes = attributes;
  return l;
}

function status(r: Reader): Json {
  const s: Json = {};
  fields(r, (num, wire) => {
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'message'), (s.message = r.string()), true);
    if (num === 3) return (expectWire(wire, WIRE_VARINT, 'code'), (s.code = r.small()), true);
    return false;
  });
  return s;
}

function span(r: Reader): Json {
  const s: Json = { traceId: '', spanId: '', name: '', kind: 0, startTimeUnixNano: '0', endTimeUnixNano: '0' };
  const attributes: Json[] = [];
  const events: Json[] = [];
  const links: Json[] = [];
  fields(r, (num, wire) => {
    switch (num) {
      case 1:
        return (expectWire(wire, WIRE_LEN, 'trace_id'), (s.traceId = hex(r.bytes())), true);
      case 2:
        return (expectWire(wire, WIRE_LEN, 'span_id'), (s.spanId = hex(r.bytes())), true);
      case 3:
        return (expectWire(wire, WIRE_LEN, 'trace_state'), (s.traceState = r.string()), true);
      case 4: {
        expectWire(wire, WIRE_LEN, 'parent_span_id');
        const parent = r.bytes();
        if (parent.length > 0) s.parentSpanId = hex(parent);
        return true;
      }
      case 5:
        return (expectWire(wire, WIRE_LEN, 'name'), (s.name = r.string()), true);
      case 6:
        return (expectWire(wire, WIRE_VARINT, 'kind'), (s.kind = r.small()), true);
      case 7:
        return (
          expectWire(wire, WIRE_I64, 'start_time_unix_nano'),
          (s.startTimeUnixNano = r.fixed64().toString()),
          true
        );
      case 8:
        return (expectWire(wire, WIRE_I64, 'end_time_unix_nano'), (s.endTimeUnixNano = r.fixed64().toString()), true);
      case 9:
        return (expectWire(wire, WIRE_LEN, 'attributes'), attributes.push(keyValue(r.message())), true);
      case 10:
        return (
          expectWire(wire, WIRE_VARINT, 'dropped_attributes_count'),
          (s.droppedAttributesCount = r.small()),
          true
        );
      case 11:
        return (expectWire(wire, WIRE_LEN, 'events'), events.push(event(r.message())), true);
      case 12:
        return (expectWire(wire, WIRE_VARINT, 'dropped_events_count'), (s.droppedEventsCount = r.small()), true);
      case 13:
        return (expectWire(wire, WIRE_LEN, 'links'), links.push(link(r.message())), true);
      case 14:
        return (expectWire(wire, WIRE_VARINT, 'dropped_links_count'), (s.droppedLinksCount = r.small()), true);
      case 15:
        return (expectWire(wire, WIRE_LEN, 'status'), (s.status = status(r.message())), true);
      case 16:
        return (expectWire(wire, WIRE_I32, 'flags'), (s.flags = r.fixed32()), true);
      default:
        return false;
    }
  });
  Object.assign(s, { attributes, events, links });
  return s;
}

function scope(r: Reader): Json {
  const s: Json = { name: '' };
  const attributes: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'name'), (s.name = r.string()), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'version'), (s.version = r.string()), true);
    if (num === 3) return (expectWire(wire, WIRE_LEN, 'attributes'), attributes.push(keyValue(r.message())), true);
    if (num === 4)
      return (expectWire(wire, WIRE_VARINT, 'dropped_attributes_count'), (s.droppedAttributesCount = r.small()), true);
    return false;
  });
  s.attributes = attributes;
  return s;
}

function scopeSpans(r: Reader): Json {
  const out: Json = {};
  const spans: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'scope'), (out.scope = scope(r.message())), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'spans'), spans.push(span(r.message())), true);
    if (num === 3) return (expectWire(wire, WIRE_LEN, 'schema_url'), (out.schemaUrl = r.string()), true);
    return false;
  });
  out.spans = spans;
  return out;
}

function resource(r: Reader): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'attributes'), attributes.push(keyValue(r.message())), true);
    if (num === 2)
      return (
        expectWire(wire, WIRE_VARINT, 'dropped_attributes_count'),
        (out.droppedAttributesCount = r.small()),
        true
      );
    return false;
  });
  out.attributes = attributes;
  return out;
}

function resourceSpans(r: Reader): Json {
  const out: Json = {};
  const list: Json[] = [];
  fields(r, (num, wire) => {
    if (num === 1) return (expectWire(wire, WIRE_LEN, 'resource'), (out.resource = resource(r.message())), true);
    if (num === 2) return (expectWire(wire, WIRE_LEN, 'scope_spans'), list.push(scopeSpans(r.message())), true);
    if (num === 3) return (expectWire(wire, WIRE_LEN, 'schema_url'), (out.schemaUrl = r.string()), true);
    return false;
  });
  out.scopeSpans = list;
  return out;
}

/** Decodes an `ExportTraceServiceRequest`; throws `ProtobufDecodeError` on a malformed message. */
export function decodeTraceExportRequest(body: Uint8Array): { resourceSpans: Json[] } {
  const reader = new Reader(body);
  const list: Json[] = [];
  fields(reader, (num, wire) => {
    if (num !== 1) return false;
    expectWire(wire, WIRE_LEN, 'resource_spans');
    list.push(resourceSpans(reader.message()));
    return true;
  });
  return { resourceSpans: list };
}
