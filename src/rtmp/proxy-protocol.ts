// The PROXY protocol header (HAProxy's specification, versions 1 and 2) a TCP load balancer
// puts in front of the bytes it passes through, naming the client it accepted the connection
// from. Behind nginx's `stream` balancer (deploy/nginx-ingest.conf) every RTMP connection
// otherwise comes from the balancer's own address, and the key-guessing penalty box
// (src/ingest/penalty-box.ts) would lock out every encoder at once.
//
// The reader is fed the connection's first bytes as they arrive and answers once the header is
// whole: the client's address, and whatever followed the header (the start of the RTMP
// handshake). Anything else is an RtmpProtocolError: a missing or malformed header closes the
// connection, since a listener that expects the header must never take a client's own bytes
// for one (nor the other way round).
import { isIP } from 'node:net';
import { RtmpProtocolError } from './protocol-error.ts';

/** Version 2's fixed signature: no valid version 1 header or RTMP handshake begins with it. */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** Version 1's whole line is at most 107 bytes, CRLF included (the specification's own bound). */
const V1_MAX_BYTES = 107;
const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
/** Version 2 may carry extensions (TLVs); far more than any balancer sends is refused. */
const V2_MAX_PAYLOAD_BYTES = 4096;

/** The header, read. `address` is undefined for LOCAL (a balancer's own health check) and UNKNOWN. */
export interface ProxyHeader {
  address: string | undefined;
  /** The bytes after the header: the client's own first bytes. */
  rest: Buffer;
}

export class ProxyHeaderReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** The header once it is whole, else undefined (feed more); throws RtmpProtocolError. */
  feed(chunk: Buffer): ProxyHeader | undefined {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const bytes = this.buffered;
    const v2Prefix = Math.min(bytes.length, V2_SIGNATURE.length);
    if (bytes.subarray(0, v2Prefix).equals(V2_SIGNATURE.subarray(0, v2Prefix))) return readV2(bytes);
    const v1Prefix = Math.min(bytes.length, V1_PREFIX.length);
    if (bytes.subarray(0, v1Prefix).equals(V1_PREFIX.subarray(0, v1Prefix))) return readV1(bytes);
    throw new RtmpProtocolError('the connection did not begin with a PROXY protocol header');
  }
}

function readV1(bytes: Buffer): ProxyHeader | undefined {
  const end = bytes.indexOf('\r\n', 0, 'latin1');
  if (end === -1) {
    if (bytes.length >= V1_MAX_BYTES) throw new RtmpProtocolError('PROXY header longer than 107 bytes');
    return undefined;
  }
  if (end + 2 > V1_MAX_BYTES) throw new RtmpProtocolError('PROXY header longer than 107 bytes');
  const fields = bytes.toString('latin1', 0, end).split(' ');
  const rest = bytes.subarray(end + 2);
  const [, family, source, destination, sourcePort, destinationPort] = fields;
  if (family === 'UNKNOWN') return { address: undefined, rest };
  if (fields.length !== 6 || (family !== 'TCP4' && family !== 'TCP6')) {
    throw new RtmpProtocolError('malformed PROXY header');
  }
  const version = family === 'TCP4' ? 4 : 6;
  if (
    isIP(source ?? '') !== version ||
    isIP(destination ?? '') !== version ||
    !isPort(sourcePort) ||
    !isPort(destinationPort)
  ) {
    throw new RtmpProtocolError('malformed PROXY header');
  }
  return { address: source, rest };
}

function isPort(text: string | undefined): boolean {
  return text !== undefined && /^(0|[1-9][0-9]{0,4})$/.test(text) && Number(text) <= 65535;
}

function readV2(bytes: Buffer): ProxyHeader | undefined {
  if (bytes.length < 16) return undefined;
  const versionAndCommand = bytes[12] as number;
  const familyAndProtocol = bytes[13] as number;
  const length = bytes.readUInt16BE(14);
  if (versionAndCommand >> 4 !== 2) throw new RtmpProtocolError('PROXY header of an unknown version');
  if (length > V2_MAX_PAYLOAD_BYTES) throw new RtmpProtocolError('PROXY header too long');
  if (bytes.length < 16 + length) return undefined;
  const payload = bytes.subarray(16, 16 + length);
  const rest = bytes.subarray(16 + length);
  const command = versionAndCommand & 0x0f;
  if (command === 0) return { address: undefined, rest };
  if (command !== 1) throw new RtmpProtocolError('PROXY header with an unknown command');
  const family = familyAndProtocol >> 4;
  if (family === 1) {
    if (payload.length < 12) throw new RtmpProtocolError('malformed PROXY header');
    return { address: Array.from(payload.subarray(0, 4)).join('.'), rest };
  }
  if (family === 2) {
    if (payload.length < 36) throw new RtmpProtocolError('malformed PROXY header');
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(payload.readUInt16BE(i).toString(16));
    return { address: compactIPv6(groups), rest };
  }
  // AF_UNSPEC or a Unix socket: no client address to speak of.
  return { address: undefined, rest };
}

/** An IPv6 address as Node writes `socket.remoteAddress` (so one client has one spelling). */
function compactIPv6(groups: string[]): string {
  const full = groups.join(':');
  if (groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff') {
    const high = Number.parseInt(groups[6] as string, 16);
    const low = Number.parseInt(groups[7] as string, 16);
    return `::ffff:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  // The longest run of zero groups (two or more) becomes '::'.
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === '0') length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  if (bestStart === -1) return full;
  const head = groups.slice(0, bestStart).join(':');
  const tail = groups.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}
