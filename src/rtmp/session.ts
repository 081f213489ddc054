// One RTMP connection from the server's side, as a state machine over the bytes received:
// handshake, then connect -> createStream -> publish, then media. Only what a publishing
// encoder needs is understood; releaseStream, FCPublish and other commands encoders send
// along the way are tolerated, play is refused, and everything malformed or out of order
// throws an RtmpProtocolError. The session never decides whether a publisher may publish: it
// reports the request and answers NetStream.Publish.Start only when told to. It does report
// how a publish ends: an encoder that stops on purpose (OBS's Stop Streaming, ffmpeg at the
// end of its input) says so with FCUnpublish and deleteStream before it hangs up, which a
// dropped connection never does, and the ingest treats the two differently.
import { decodeAmf0, encodeAmf0, type Amf0Object, type Amf0Value } from './amf0.ts';
import { ChunkReader, type RtmpMessage } from './chunk-reader.ts';
import { COMMAND_CHUNK_STREAM, controlMessages, OUT_CHUNK_SIZE, writeChunks } from './chunk-writer.ts';
import { HandshakeReader } from './handshake.ts';
import { MessageType } from './message-types.ts';
import { RtmpProtocolError } from './protocol-error.ts';

export interface PublishRequest {
  /** The application name from connect (`live` in rtmp://host/live). */
  app: string;
  /** The stream name from publish, without any `?query`: the stream key. */
  streamName: string;
}

export interface SessionHandler {
  send(bytes: Buffer): void;
  publish(request: PublishRequest): void;
  /** An audio (8) or video (9) message from the publisher. */
  media(type: number, timestamp: number, payload: Buffer): void;
  /**
   * The publisher said it is done publishing (FCUnpublish, deleteStream or closeStream after
   * publish): a clean stop, not a drop. May come more than once (FCUnpublish, then deleteStream).
   */
  unpublish(): void;
  /** The session is over without a protocol error (play refused, the publisher said goodbye). */
  end(reason: string): void;
}

/** Control messages are a few bytes; commands and metadata a few hundred. */
const MAX_CONTROL_BYTES = 256;
export const MAX_COMMAND_BYTES = 64 * 1024;
/** One audio or video frame; a keyframe of a high-bitrate 4K stream fits. */
export const MAX_MEDIA_BYTES = 8 * 1024 * 1024;
/** createStream calls per connection: an encoder makes one. */
const MAX_STREAMS = 4;
const MAX_NAME_LENGTH = 1024;
/** The acknowledgement window the server asks for and the smallest one it honours. */
const WINDOW_ACK_SIZE = 5_000_000;
const MIN_PEER_WINDOW = 64 * 1024;

type State = 'handshake' | 'connecting' | 'connected' | 'publishing' | 'ended';

export class RtmpSession {
  private readonly handler: SessionHandler;
  private readonly handshake = new HandshakeReader();
  private readonly reader: ChunkReader;
  private state: State = 'handshake';
  private app = '';
  private readonly streamIds = new Set<number>();
  private publishStreamId = 0;
  private outChunkSize = 128;
  private bytesIn = 0;
  private lastAck = 0;
  private peerWindow = 0;

  constructor(handler: SessionHandler) {
    this.handler = handler;
    this.reader = new ChunkReader({
      maxMessageBytes: (type) => this.maxMessageBytes(type),
      onMessage: (message) => {
        this.onMessage(message);
      },
    });
  }

  private get ended(): boolean {
    return this.state === 'ended';
  }

  /** Feeds bytes from the socket. Throws RtmpProtocolError when they break the protocol. */
  feed(data: Buffer): void {
    if (this.state === 'ended') return;
    let rest = data;
    while (this.state === 'handshake' && rest.length > 0) {
      const { used, reply } = this.handshake.feed(rest);
      if (reply) this.handler.send(reply);
      rest = rest.subarray(used);
      if (this.handshake.done) this.state = 'connecting';
    }
    if (this.state === 'handshake') return;
    this.bytesIn += data.length;
    if (rest.length > 0) this.reader.push(rest);
    if (this.peerWindow > 0 && this.bytesIn - this.lastAck >= this.peerWindow && !this.ended) {
      this.lastAck = this.bytesIn;
      this.handler.send(controlMessages.acknowledgement(this.bytesIn));
    }
  }

  /** The publisher was admitted: tell the encoder to start sending. */
  acceptPublish(): void {
    if (this.state !== 'publishing') return;
    this.handler.send(controlMessages.streamBegin(this.publishStreamId));
    this.sendStatus('status', 'NetStream.Publish.Start', 'Publishing started.');
  }

  /** An onStatus message on the publishing stream (a refusal, for one). */
  sendStatus(level: 'status' | 'error', code: string, description: string): void {
    this.sendCommand(this.publishStreamId, 'onStatus', 0, null, { level, code, description });
  }

  /** Later bytes are ignored; the connection is being closed. */
  stop(): void {
    this.state = 'ended';
    this.reader.stop();
  }

  private maxMessageBytes(type: number): number {
    switch (type) {
      case MessageType.setChunkSize:
      case MessageType.abort:
      case MessageType.acknowledgement:
      case MessageType.userControl:
      case MessageType.windowAckSize:
      case MessageType.setPeerBandwidth:
        return MAX_CONTROL_BYTES;
      case MessageType.audio:
      case MessageType.video:
        return this.state === 'publishing' ? MAX_MEDIA_BYTES : 0;
      default:
        return MAX_COMMAND_BYTES;
    }
  }

  private onMessage(message: RtmpMessage): void {
    if (this.state === 'ended') return;
    switch (message.type) {
      case MessageType.windowAckSize:
        if (message.payload.length < 4)
          throw new RtmpProtocolError('Window Acknowledgement Size: payload too short');
        this.peerWindow = Math.max(message.payload.readUInt32BE(0), MIN_PEER_WINDOW);
        return;
      case MessageType.commandAmf0:
        this.onCommand(message, message.payload);
        return;
      case MessageType.commandAmf3:
        // An AMF3 command message is a format byte (0) followed by AMF0 values.
        if (message.payload.length < 1) throw new RtmpProtocolError('command: empty AMF3 command message');
        this.onCommand(message, message.payload.subarray(1));
        return;
      case MessageType.audio:
      case MessageType.video:
        // Only reachable while publishing (the chunk reader refuses media before).
        this.handler.media(message.type, message.timestamp, message.payload);
        return;
      default:
        // Acknowledgements, user control events, peer bandwidth, metadata (@setDataFrame: the
        // packager finds the streams from the media), shared objects: nothing to do.
        return;
    }
  }

  private onCommand(message: RtmpMessage, payload: Buffer): void {
    const values = decodeAmf0(payload);
    const [name, transactionId] = values;
    if (typeof name !== 'string') throw new RtmpProtocolError('command: name is not a string');
    if (typeof transactionId !== 'number')
      throw new RtmpProtocolError('command: transaction id is not a number');
    if (this.state === 'connecting' && name !== 'connect') {
      throw new RtmpProtocolError('command: a command other than connect before connect');
    }
    switch (name) {
      case 'connect':
        this.onConnect(transactionId, values[2]);
        return;
      case 'createStream':
        this.onCreateStream(transactionId);
        return;
      case 'publish':
        this.onPublish(message.streamId, values[3]);
        return;
      case 'play':
      case 'play2':
        this.sendCommand(message.streamId, 'onStatus', 0, null, {
          level: 'error',
          code: 'NetStream.Play.Failed',
          description: 'This server only ingests; watch over HLS.',
        });
        this.end('play is not supported');
        return;
      case 'FCUnpublish':
        // The encoder is stopping (deleteStream follows); the connection stays open until then,
        // so one still writing its last commands is not cut off mid-write.
        if (this.state === 'publishing') this.handler.unpublish();
        return;
      case 'deleteStream':
      case 'closeStream':
        // The encoder is done (it sends FCUnpublish, then deleteStream, then hangs up).
        if (this.state === 'publishing') {
          this.handler.unpublish();
          this.end('the publisher closed its stream');
        }
        return;
      default:
        // releaseStream, FCPublish, getStreamLength, _checkbw, ...: not needed.
        return;
    }
  }

  private onConnect(transactionId: number, commandObject: Amf0Value): void {
    if (this.state !== 'connecting') throw new RtmpProtocolError('connect: already connected');
    if (!isObject(commandObject)) throw new RtmpProtocolError('connect: command object missing');
    const app = commandObject.app;
    if (typeof app !== 'string' || app.length > MAX_NAME_LENGTH) {
      throw new RtmpProtocolError('connect: app is not a string');
    }
    // tcUrl, flashVer, swfUrl and the rest are informational; none is needed.
    this.app = app;
    this.state = 'connected';
    this.handler.send(
      Buffer.concat([
        controlMessages.windowAckSize(WINDOW_ACK_SIZE),
        controlMessages.setPeerBandwidth(WINDOW_ACK_SIZE),
        controlMessages.setChunkSize(OUT_CHUNK_SIZE),
      ]),
    );
    this.outChunkSize = OUT_CHUNK_SIZE;
    this.sendCommand(
      0,
      '_result',
      transactionId,
      { fmsVer: 'FMS/3,0,1,123', capabilities: 31 },
      {
        level: 'status',
        code: 'NetConnection.Connect.Success',
        description: 'Connection succeeded.',
        objectEncoding: 0,
      },
    );
  }

  private onCreateStream(transactionId: number): void {
    if (this.streamIds.size >= MAX_STREAMS) throw new RtmpProtocolError('createStream: too many streams');
    const id = this.streamIds.size + 1;
    this.streamIds.add(id);
    this.sendCommand(0, '_result', transactionId, null, id);
  }

  private onPublish(streamId: number, streamName: Amf0Value): void {
    if (this.state !== 'connected') throw new RtmpProtocolError('publish: not expected now');
    if (!this.streamIds.has(streamId)) throw new RtmpProtocolError('publish: on a stream not created');
    if (typeof streamName !== 'string' || streamName.length > MAX_NAME_LENGTH) {
      throw new RtmpProtocolError('publish: stream name is not a string');
    }
    this.state = 'publishing';
    this.publishStreamId = streamId;
    // Some software appends `?parameters` to the key; they are not part of it.
    const query = streamName.indexOf('?');
    this.handler.publish({
      app: this.app,
      streamName: query === -1 ? streamName : streamName.slice(0, query),
    });
  }

  private end(reason: string): void {
    this.stop();
    this.handler.end(reason);
  }

  private sendCommand(streamId: number, name: string, transactionId: number, ...values: Amf0Value[]): void {
    const payload = encodeAmf0(name, transactionId, ...values);
    this.handler.send(
      writeChunks(COMMAND_CHUNK_STREAM, MessageType.commandAmf0, streamId, payload, this.outChunkSize),
    );
  }
}

function isObject(value: Amf0Value): value is Amf0Object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
