// Chromium as a WHIP publisher: its fake camera (a moving test pattern) and microphone (a
// beep), over WebRTC on loopback, which needs the flags of ../shared/notes/webrtc.md.
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './media-browser.ts';

export const WEBRTC_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

export async function launchPublisherBrowser(t: TestContext): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-whip-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...WEBRTC_ARGS],
  });
  t.after(async () => {
    await context.close().catch(() => undefined);
    fs.rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

export interface OutboundVideo {
  width: number;
  height: number;
  bytesSent: number;
}

/** The page's outgoing video as its RTCPeerConnection reports it (`window.whipPeer`). */
export const OUTBOUND_VIDEO_SCRIPT = `(async () => {
  const peer = window.whipPeer;
  if (!peer) return undefined;
  let found;
  (await peer.getStats()).forEach((s) => {
    if (s.type === 'outbound-rtp' && s.kind === 'video') found = { width: s.frameWidth ?? 0, height: s.frameHeight ?? 0, bytesSent: s.bytesSent ?? 0 };
  });
  return found;
})()`;
