// node-media-server ships JavaScript without types. Ingest uses only its RTMP protocol layer
// and FLV tag writer (see docs/architecture.md for why not its server class); these are the
// parts of version 4.4.3 it relies on, which is why the version is pinned exactly.
declare module 'node-media-server/src/core/avpacket.js' {
  class AVPacket {
    /** 8 audio, 9 video, 18 script data (the FLV/RTMP message type). */
    codec_type: number;
    codec_id: number;
    /** 0 audio header, 1 audio, 2 video header, 3 keyframe, 4 inter frame, 5 metadata. */
    flags: number;
    dts: number;
    pts: number;
    size: number;
    data: Buffer;
  }
  export = AVPacket;
}

declare module 'node-media-server/src/protocol/rtmp.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';

  interface RtmpStreamRequest {
    app: string;
    name: string;
    host: string;
    query: Record<string, unknown>;
  }

  class Rtmp {
    streamId: number;
    onConnectCallback: (request: RtmpStreamRequest) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: AVPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    /** Feeds bytes from the socket; returns an error message when the stream is malformed. */
    parserData(buffer: Buffer): string | null;
    sendStatusMessage(streamId: number, level: string, code: string, description: string): void;
  }
  export = Rtmp;
}

declare module 'node-media-server/src/protocol/flv.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';

  class Flv {
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    /** One FLV tag (with its trailing previous-tag-size) for a packet; copies the payload. */
    static createMessage(packet: AVPacket): Buffer;
  }
  export = Flv;
}
