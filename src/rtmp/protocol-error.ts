// What every malformed, unexpected or oversized RTMP input becomes. The listener catches it,
// closes that one connection and logs `reason`, so a reason never quotes what the client
// sent (a stream name is a stream key): only fixed text and numbers.
export class RtmpProtocolError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'RtmpProtocolError';
    this.reason = reason;
  }
}
