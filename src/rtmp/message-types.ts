// RTMP message type ids (Adobe's RTMP specification, 2012, sections 5.4, 6.2 and 7.1).
export const MessageType = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  dataAmf3: 15,
  sharedObjectAmf3: 16,
  commandAmf3: 17,
  dataAmf0: 18,
  sharedObjectAmf0: 19,
  commandAmf0: 20,
  aggregate: 22,
} as const;
