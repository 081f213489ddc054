// AMF0 (Adobe's Action Message Format 0 specification, 2007): the values of RTMP commands.
// The decoder reads untrusted bytes, so it is bounded (nesting depth, values per message,
// declared counts checked against the bytes left), never reads past the end, and turns every
// problem into an RtmpProtocolError. Objects are built without a prototype, so a key such as
// `__proto__` is just a key. The encoder writes the few replies the server sends.
import { RtmpProtocolError } from './protocol-error.ts';

export type Amf0Value = number | boolean | string | null | undefined | Date | Amf0Object | Amf0Value[];
export interface Amf0Object {
  [key: string]: Amf0Value;
}

const Marker = {
  number: 0x00,
  boolean: 0x01,
  string: 0x02,
  object: 0x03,
  null: 0x05,
  undefined: 0x06,
  ecmaArray: 0x08,
  objectEnd: 0x09,
  strictArray: 0x0a,
  date: 0x0b,
  longString: 0x0c,
  unsupported: 0x0d,
  xmlDocument: 0x0f,
  typedObject: 0x10,
} as const;

/** Commands from encoders nest two or three levels; anything deeper is not a command. */
export const MAX_AMF_DEPTH = 16;
/** Values (including every property and array element) decoded from one message. */
export const MAX_AMF_VALUES = 4096;

/** Decodes every value in `payload`, in order. */
export function decodeAmf0(payload: Buffer): Amf0Value[] {
  const reader = new Amf0Reader(payload);
  const values: Amf0Value[] = [];
  while (!reader.atEnd()) values.push(reader.value(0));
  return values;
}

class Amf0Reader {
  private readonly buf: Buffer;
  private pos = 0;
  private count = 0;

  constructor(buf: Buffer) {
    this.buf = buf;
  }

  atEnd(): boolean {
    return this.pos >= this.buf.length;
  }

  value(depth: number): Amf0Value {
    if (++this.count > MAX_AMF_VALUES) throw new RtmpProtocolError('AMF0: too many values in one message');
    const marker = this.u8();
    switch (marker) {
      case Marker.number:
        return this.double();
      case Marker.boolean:
        return this.u8() !== 0;
      case Marker.string:
        return this.text(this.u16());
      case Marker.longString:
      case Marker.xmlDocument:
        return this.text(this.u32());
      case Marker.null:
        return null;
      case Marker.undefined:
      case Marker.unsupported:
        return undefined;
      case Marker.date: {
        const ms = this.double();
        this.need(2); // time zone, which the specification says to ignore
        this.pos += 2;
        return new Date(ms);
      }
      case Marker.object:
        return this.properties(depth);
      case Marker.typedObject:
        this.text(this.u16()); // class name, not needed
        return this.properties(depth);
      case Marker.ecmaArray:
        this.u32(); // the count is only a hint; the end marker ends the array
        return this.properties(depth);
      case Marker.strictArray:
        return this.strictArray(depth);
      default:
        // Includes references (0x07), record sets and AMF3 switches, which encoders never send.
        throw new RtmpProtocolError(`AMF0: unsupported type marker ${marker}`);
    }
  }

  private properties(depth: number): Amf0Object {
    if (depth >= MAX_AMF_DEPTH) throw new RtmpProtocolError('AMF0: values nested too deeply');
    const object = Object.create(null) as Amf0Object;
    for (;;) {
      const key = this.text(this.u16());
      if (key === '') {
        if (this.u8() !== Marker.objectEnd) throw new RtmpProtocolError('AMF0: empty property name');
        return object;
      }
      object[key] = this.value(depth + 1);
    }
  }

  private strictArray(depth: number): Amf0Value[] {
    if (depth >= MAX_AMF_DEPTH) throw new RtmpProtocolError('AMF0: values nested too deeply');
    const count = this.u32();
    // Every value takes at least one byte, so a count beyond the bytes left is a lie.
    if (count > this.buf.length - this.pos || count > MAX_AMF_VALUES) {
      throw new RtmpProtocolError('AMF0: strict array longer than its message');
    }
    const values: Amf0Value[] = [];
    for (let i = 0; i < count; i++) values.push(this.value(depth + 1));
    return values;
  }

  private need(bytes: number): void {
    if (this.buf.length - this.pos < bytes) throw new RtmpProtocolError('AMF0: value truncated');
  }

  private u8(): number {
    this.need(1);
    return this.buf[this.pos++] as number;
  }

  private u16(): number {
    this.need(2);
    const value = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return value;
  }

  private u32(): number {
    this.need(4);
    const value = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return value;
  }

  private double(): number {
    this.need(8);
    const value = this.buf.readDoubleBE(this.pos);
    this.pos += 8;
    return value;
  }

  private text(length: number): string {
    this.need(length);
    const value = this.buf.toString('utf8', this.pos, this.pos + length);
    this.pos += length;
    return value;
  }
}

/** Encodes values for the server's replies (numbers, booleans, strings, null, objects). */
export function encodeAmf0(...values: Amf0Value[]): Buffer {
  const parts: Buffer[] = [];
  for (const value of values) writeValue(parts, value);
  return Buffer.concat(parts);
}

function writeValue(parts: Buffer[], value: Amf0Value): void {
  if (value === null) {
    parts.push(Buffer.from([Marker.null]));
  } else if (value === undefined) {
    parts.push(Buffer.from([Marker.undefined]));
  } else if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = Marker.number;
    out.writeDoubleBE(value, 1);
    parts.push(out);
  } else if (typeof value === 'boolean') {
    parts.push(Buffer.from([Marker.boolean, value ? 1 : 0]));
  } else if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    const long = text.length > 0xffff;
    const head = Buffer.alloc(long ? 5 : 3);
    head[0] = long ? Marker.longString : Marker.string;
    if (long) head.writeUInt32BE(text.length, 1);
    else head.writeUInt16BE(text.length, 1);
    parts.push(head, text);
  } else if (value instanceof Date) {
    const out = Buffer.alloc(11);
    out[0] = Marker.date;
    out.writeDoubleBE(value.getTime(), 1);
    parts.push(out);
  } else if (Array.isArray(value)) {
    const head = Buffer.alloc(5);
    head[0] = Marker.strictArray;
    head.writeUInt32BE(value.length, 1);
    parts.push(head);
    for (const item of value) writeValue(parts, item);
  } else {
    parts.push(Buffer.from([Marker.object]));
    for (const [key, item] of Object.entries(value)) {
      const name = Buffer.from(key, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(name.length);
      parts.push(length, name);
      writeValue(parts, item);
    }
    parts.push(Buffer.from([0x00, 0x00, Marker.objectEnd]));
  }
}
