// A small RTMP client for tests, written apart from the server's own code so the two cannot
// share a mistake: the simple handshake, a chunk writer that can write any header (valid or
// not), an AMF0 encoder that can write any type marker, and a reader for what the server
// answers (enough to see `_result` and `onStatus` messages and the connection closing).
import net from 'node:net';

export const MSG = {
  setChunkSize: 1,
  abort: 2,
  ack: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  data: 18,
  invoke: 20,
} as const;

// ---------------------------------------------------------------------------------------
// AMF0 encoding: each helper returns the bytes of one value, so tests can assemble commands
// with wrong types, unknown markers or truncated values.

export const amf = {
  number(value: number): Buffer {
    const out = Buffer.alloc(9);
    out[0] = 0x00;
    out.writeDoubleBE(value, 1);
    return out;
  },
  boolean(value: boolean): Buffer {
    return Buffer.from([0x01, value ? 1 : 0]);
  },
  string(value: string): Buffer {
    const text = Buffer.from(value, 'utf8');
    const out = Buffer.alloc(3 + text.length);
    out[0] = 0x02;
    out.writeUInt16BE(text.length, 1);
    text.copy(out, 3);
    return out;
  },
  longString(value: string): Buffer {
    const text = Buffer.from(value, 'utf8');
    const out = Buffer.alloc(5 + text.length);
    out[0] = 0x0c;
    out.writeUInt32BE(text.length, 1);
    text.copy(out, 5);
    return out;
  },
  null(): Buffer {
    return Buffer.from([0x05]);
  },
  undefined(): Buffer {
    return Buffer.from([0x06]);
  },
  /** An object from already-encoded property values. */
  object(properties: Record<string, Buffer>): Buffer {
    return Buffer.concat([Buffer.from([0x03]), properties_(properties), Buffer.from([0x00, 0x00, 0x09])]);
  },
  ecmaArray(properties: Record<string, Buffer>, count = Object.keys(properties).length): Buffer {
    const head = Buffer.alloc(5);
    head[0] = 0x08;
    head.writeUInt32BE(count, 1);
    return Buffer.concat([head, properties_(properties), Buffer.from([0x00, 0x00, 0x09])]);
  },
  strictArray(values: Buffer[], count = values.length): Buffer {
    const head = Buffer.alloc(5);
    head[0] = 0x0a;
    head.writeUInt32BE(count, 1);
    return Buffer.concat([head, ...values]);
  },
  date(ms: number): Buffer {
    const out = Buffer.alloc(11);
    out[0] = 0x0b;
    out.writeDoubleBE(ms, 1);
    return out;
  },
  /** A plain JavaScript value the usual way (strings, numbers, booleans, null, objects). */
  value(value: unknown): Buffer {
    if (value === null) return amf.null();
    if (value === undefined) return amf.undefined();
    if (typeof value === 'number') return amf.number(value);
    if (typeof value === 'boolean') return amf.boolean(value);
    if (typeof value === 'string') return amf.string(value);
    if (Buffer.isBuffer(value)) return value;
    if (Array.isArray(value)) return amf.strictArray(value.map((item) => amf.value(item)));
    const properties: Record<string, Buffer> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      properties[key] = amf.value(item);
    return amf.object(properties);
  },
};

function properties_(properties: Record<string, Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const name = Buffer.from(key, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(name.length);
    parts.push(length, name, value);
  }
  return Buffer.concat(parts);
}

/** A command message's payload: name, transaction id, then the given values (raw or plain). */
export function command(name: string, transactionId: number, ...values: unknown[]): Buffer {
  return Buffer.concat([
    amf.string(name),
    amf.number(transactionId),
    ...values.map((value) => amf.value(value)),
  ]);
}

// ---------------------------------------------------------------------------------------
// Chunks

export interface ChunkHeader {
  fmt: 0 | 1 | 2 | 3;
  csid: number;
  timestamp?: number;
  length?: number;
  type?: number;
  streamId?: number;
  /** Forces an extended timestamp field with this value (after a 0xffffff timestamp field). */
  extendedTimestamp?: number;
}

/** One chunk header exactly as given (the basic header picks its 1-, 2- or 3-byte form). */
export function chunkHeader(header: ChunkHeader): Buffer {
  const parts: number[] = [];
  const { fmt, csid } = header;
  if (csid >= 2 && csid <= 63) parts.push((fmt << 6) | csid);
  else if (csid >= 64 && csid <= 319) parts.push(fmt << 6, csid - 64);
  else parts.push((fmt << 6) | 1, (csid - 64) & 0xff, ((csid - 64) >> 8) & 0xff);
  const out = Buffer.alloc(11 + 4);
  let offset = 0;
  const timestamp = header.timestamp ?? 0;
  const extended = header.extendedTimestamp !== undefined || timestamp >= 0xffffff;
  if (fmt <= 2) {
    out.writeUIntBE(extended ? 0xffffff : timestamp, 0, 3);
    offset = 3;
  }
  if (fmt <= 1) {
    out.writeUIntBE(header.length ?? 0, 3, 3);
    out[6] = header.type ?? 0;
    offset = 7;
  }
  if (fmt === 0) {
    out.writeUInt32LE(header.streamId ?? 0, 7);
    offset = 11;
  }
  if (extended) {
    out.writeUInt32BE((header.extendedTimestamp ?? timestamp) >>> 0, offset);
    offset += 4;
  }
  return Buffer.concat([Buffer.from(parts), out.subarray(0, offset)]);
}

/** A whole message as a type-0 chunk followed by type-3 continuation chunks. */
export function chunkMessage(options: {
  csid: number;
  type: number;
  payload: Buffer;
  streamId?: number;
  timestamp?: number;
  chunkSize?: number;
}): Buffer {
  const chunkSize = options.chunkSize ?? 128;
  const timestamp = options.timestamp ?? 0;
  const extended = timestamp >= 0xffffff;
  const parts = [
    chunkHeader({
      fmt: 0,
      csid: options.csid,
      timestamp,
      length: options.payload.length,
      type: options.type,
      streamId: options.streamId ?? 0,
    }),
  ];
  for (let offset = 0; offset < options.payload.length || offset === 0; offset += chunkSize) {
    if (offset > 0)
      parts.push(
        chunkHeader({ fmt: 3, csid: options.csid, ...(extended ? { extendedTimestamp: timestamp } : {}) }),
      );
    parts.push(options.payload.subarray(offset, offset + chunkSize));
    if (options.payload.length === 0) break;
  }
  return Buffer.concat(parts);
}

export function setChunkSizeMessage(size: number, chunkSize = 128): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size >>> 0);
  return chunkMessage({ csid: 2, type: MSG.setChunkSize, payload, chunkSize });
}

// ---------------------------------------------------------------------------------------
// The connection

export interface ReceivedMessage {
  type: number;
  streamId: number;
  payload: Buffer;
}

export interface Status {
  level: string;
  code: string;
  description: string;
}

/** Handshake bytes: C0 (version 3) and C1 (time, zeros, random) for the simple handshake. */
export function handshakeC0C1(): Buffer {
  const out = Buffer.alloc(1537);
  out[0] = 3;
  for (let i = 9; i < out.length; i++) out[i] = (i * 7919) & 0xff;
  return out;
}

export class RtmpTestClient {
  readonly socket: net.Socket;
  readonly messages: ReceivedMessage[] = [];
  /** Resolves when the server closed (or reset) the connection. */
  readonly closed: Promise<void>;
  private inbound = Buffer.alloc(0);
  private handshaken = false;
  private inChunkSize = 128;
  private readonly partial = new Map<
    number,
    { type: number; streamId: number; length: number; parts: Buffer[]; received: number }
  >();
  private waiters: (() => void)[] = [];
  outChunkSize = 128;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        resolve();
        this.wake();
      });
    });
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      this.inbound = Buffer.concat([this.inbound, data]);
      this.parse();
      this.wake();
    });
  }

  /**
   * Opens a TCP connection; with `handshake` (the default) completes the RTMP handshake.
   * `proxyHeader` is sent first, as a balancer speaking the PROXY protocol would.
   */
  static async open(
    port: number,
    options: { handshake?: boolean; host?: string; proxyHeader?: string | Buffer } = {},
  ): Promise<RtmpTestClient> {
    const socket = net.connect(port, options.host ?? '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    if (options.proxyHeader !== undefined) socket.write(options.proxyHeader);
    const client = new RtmpTestClient(socket);
    if (options.handshake ?? true) await client.handshake();
    return client;
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  async handshake(timeoutMs = 5000): Promise<void> {
    this.socket.write(handshakeC0C1());
    await this.until(() => this.inbound.length >= 3073, timeoutMs, 'S0 S1 S2');
    if (this.inbound[0] !== 3) throw new Error(`S0 version ${this.inbound[0]}`);
    const s1 = this.inbound.subarray(1, 1537);
    this.socket.write(Buffer.from(s1));
    this.inbound = this.inbound.subarray(3073);
    this.handshaken = true;
    this.parse();
  }

  write(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  sendMessage(
    type: number,
    payload: Buffer,
    options: { csid?: number; streamId?: number; timestamp?: number } = {},
  ): void {
    this.write(
      chunkMessage({
        csid: options.csid ?? 3,
        type,
        payload,
        streamId: options.streamId ?? 0,
        timestamp: options.timestamp ?? 0,
        chunkSize: this.outChunkSize,
      }),
    );
  }

  sendCommand(name: string, transactionId: number, values: unknown[], streamId = 0): void {
    this.sendMessage(MSG.invoke, command(name, transactionId, ...values), {
      streamId,
      csid: streamId ? 8 : 3,
    });
  }

  /** What an encoder sends: connect to `app`, createStream, publish `streamName`. */
  startPublish(app: string, streamName: string): void {
    this.sendCommand('connect', 1, [{ app, type: 'nonprivate', tcUrl: `rtmp://127.0.0.1/${app}` }]);
    this.sendCommand('releaseStream', 2, [null, streamName]);
    this.sendCommand('FCPublish', 3, [null, streamName]);
    this.sendCommand('createStream', 4, [null]);
    this.sendCommand('publish', 5, [null, streamName, 'live'], 1);
  }

  /** The statuses (`onStatus` info objects) received so far. */
  statuses(): Status[] {
    const out: Status[] = [];
    for (const message of this.messages) {
      if (message.type !== MSG.invoke) continue;
      const values = decodeSimpleAmf(message.payload);
      if (values[0] !== 'onStatus') continue;
      const info = values[3] as Record<string, unknown> | undefined;
      if (info && typeof info === 'object') {
        out.push({
          level: String(info.level),
          code: String(info.code),
          description: String(info.description),
        });
      }
    }
    return out;
  }

  /** The command names of invoke messages received (`_result`, `onStatus`, ...). */
  commands(): string[] {
    return this.messages
      .filter((message) => message.type === MSG.invoke)
      .map((message) => String(decodeSimpleAmf(message.payload)[0]));
  }

  /** Waits for the first status, or undefined when the connection closes without one. */
  async nextStatus(timeoutMs = 5000): Promise<Status | undefined> {
    await this.until(() => this.statuses().length > 0 || this.isClosed, timeoutMs, 'a status');
    return this.statuses()[0];
  }

  /** Waits for the first `_result` (the answer to connect or createStream). */
  async nextResult(timeoutMs = 5000): Promise<void> {
    await this.until(() => this.commands().includes('_result') || this.isClosed, timeoutMs, 'a _result');
  }

  /** Resolves true when the server closes within `timeoutMs`, false otherwise. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    return Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) =>
        setTimeout(() => {
          resolve(false);
        }, timeoutMs).unref(),
      ),
    ]);
  }

  close(): void {
    this.socket.destroy();
  }

  private async until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.isClosed && !condition()) {
        if (what === 'S0 S1 S2') throw new Error(`connection closed before ${what}`);
        return;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** A lenient reader of the server's chunks (it only ever sends type-0 and type-3 chunks). */
  private parse(): void {
    if (!this.handshaken) return;
    for (;;) {
      const buf = this.inbound;
      if (buf.length < 1) return;
      const fmt = buf[0]! >> 6;
      let csid = buf[0]! & 0x3f;
      let pos = 1;
      if (csid === 0) {
        if (buf.length < 2) return;
        csid = 64 + buf[1]!;
        pos = 2;
      } else if (csid === 1) {
        if (buf.length < 3) return;
        csid = 64 + buf[1]! + buf[2]! * 256;
        pos = 3;
      }
      const headerSize = [11, 7, 3, 0][fmt]!;
      if (buf.length < pos + headerSize) return;
      let state = this.partial.get(csid);
      if (fmt <= 1) {
        const length = buf.readUIntBE(pos + 3, 3);
        const type = buf[pos + 6]!;
        const streamId = fmt === 0 ? buf.readUInt32LE(pos + 7) : (state?.streamId ?? 0);
        state = { type, streamId, length, parts: [], received: 0 };
        this.partial.set(csid, state);
      }
      pos += headerSize;
      if (!state) throw new Error(`server used chunk stream ${csid} without a header`);
      const take = Math.min(this.inChunkSize, state.length - state.received);
      if (buf.length < pos + take) return;
      state.parts.push(buf.subarray(pos, pos + take));
      state.received += take;
      this.inbound = buf.subarray(pos + take);
      if (state.received === state.length) {
        const payload = Buffer.concat(state.parts);
        state.parts = [];
        state.received = 0;
        if (state.type === MSG.setChunkSize) this.inChunkSize = payload.readUInt32BE(0);
        this.messages.push({ type: state.type, streamId: state.streamId, payload });
      }
    }
  }
}

/** Decodes the AMF0 values of a server reply (strings, numbers, booleans, null, objects). */
export function decodeSimpleAmf(payload: Buffer): unknown[] {
  const values: unknown[] = [];
  let pos = 0;
  const read = (): unknown => {
    const marker = payload[pos++];
    switch (marker) {
      case 0x00: {
        const value = payload.readDoubleBE(pos);
        pos += 8;
        return value;
      }
      case 0x01:
        return payload[pos++] !== 0;
      case 0x02: {
        const length = payload.readUInt16BE(pos);
        pos += 2;
        const value = payload.toString('utf8', pos, pos + length);
        pos += length;
        return value;
      }
      case 0x05:
        return null;
      case 0x06:
        return undefined;
      case 0x03: {
        const object: Record<string, unknown> = {};
        for (;;) {
          const length = payload.readUInt16BE(pos);
          pos += 2;
          if (length === 0 && payload[pos] === 0x09) {
            pos += 1;
            return object;
          }
          const key = payload.toString('utf8', pos, pos + length);
          pos += length;
          object[key] = read();
        }
      }
      default:
        throw new Error(`the test client cannot read AMF0 marker ${marker}`);
    }
  };
  while (pos < payload.length) values.push(read());
  return values;
}
