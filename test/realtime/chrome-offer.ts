// A WHEP offer as Chromium makes it (recvonly video and audio, candidates gathered), for tests
// that post offers without a browser: the parser's checks and the refusals before any WebRTC.
export function chromeLikeOffer(options: { h264?: boolean; audio?: boolean } = {}): string {
  const h264 = options.h264 ?? true;
  const lines = [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0 1',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    `m=video 9 UDP/TLS/RTP/SAVPF 96 97${h264 ? ' 102 103 106' : ''}`,
    'c=IN IP4 0.0.0.0',
    'a=rtcp:9 IN IP4 0.0.0.0',
    'a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host generation 0',
    'a=ice-ufrag:abcd',
    'a=ice-pwd:abcdefghijklmnopqrstuvwx',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 8B:87:09:8A:5D:C2:F3:33:EF:C5:B1:F6:84:3A:3D:D6:A3:E2:9C:17:4C:E7:46:3B:1B:CE:84:98:DD:8E:AF:7B',
    'a=setup:actpass',
    'a=mid:0',
    'a=extmap:12 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay',
    'a=recvonly',
    'a=rtcp-mux',
    'a=rtcp-rsize',
    'a=rtpmap:96 VP8/90000',
    'a=rtcp-fb:96 nack',
    'a=rtpmap:97 rtx/90000',
    'a=fmtp:97 apt=96',
    ...(h264
      ? [
          'a=rtpmap:102 H264/90000',
          'a=rtcp-fb:102 nack',
          'a=rtcp-fb:102 nack pli',
          'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
          'a=rtpmap:103 rtx/90000',
          'a=fmtp:103 apt=102',
          'a=rtpmap:106 H264/90000',
          'a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
        ]
      : []),
  ];
  if (options.audio ?? true) {
    lines.push(
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'c=IN IP4 0.0.0.0',
      'a=ice-ufrag:abcd',
      'a=ice-pwd:abcdefghijklmnopqrstuvwx',
      'a=fingerprint:sha-256 8B:87:09:8A:5D:C2:F3:33:EF:C5:B1:F6:84:3A:3D:D6:A3:E2:9C:17:4C:E7:46:3B:1B:CE:84:98:DD:8E:AF:7B',
      'a=setup:actpass',
      'a=mid:1',
      'a=recvonly',
      'a=rtcp-mux',
      'a=rtpmap:111 opus/48000/2',
      'a=fmtp:111 minptime=10;useinbandfec=1',
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
