// WHEP (WebRTC-HTTP Egress Protocol, draft-ietf-wish-whep): the realtime playback endpoint's
// OpenAPI shapes. The offer and the answer are SDP (application/sdp), the refusals JSON.
import { Type } from 'typebox';
import { ErrorResponse } from '../http/schemas.ts';

export const WhepParams = Type.Object(
  { id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const WhepSessionParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), session_id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const SdpOffer = Type.String({
  description:
    "The browser's SDP offer (RTCPeerConnection.createOffer, recvonly video and audio) with its ICE candidates gathered: trickle ICE is not taken. At most 32 KiB.",
});

export const SdpAnswer = Type.String({
  description: "The server's SDP answer, with its ICE candidates: give it to setRemoteDescription.",
});

export const whepErrorResponses = {
  400: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  413: ErrorResponse,
  415: ErrorResponse,
  429: ErrorResponse,
  500: ErrorResponse,
  503: ErrorResponse,
};
