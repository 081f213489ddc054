// The page loads hls.js with a script tag (window.Hls); its types come from the package.
import type Hls from 'hls.js';

declare global {
  interface Window {
    Hls: typeof Hls;
    /** public/subscribe.js: the Subscribe form's enhancement, shared with the watch page. */
    tributarySubscribe: {
      countText(subscribers: number): string;
      show(form: HTMLFormElement, subscribed: boolean): void;
      enhance(form: HTMLFormElement): void;
    };
    /** public/realtime.js: WebRTC playback of a realtime stream over WHEP. */
    tributaryRealtime?: {
      play(
        video: HTMLVideoElement,
        whepUrl: string,
      ): Promise<{ close(): void; ended: Promise<void>; pc: RTCPeerConnection }>;
    };
    /** public/app.js: rewrites the <time data-local> elements under a node in the viewer's time zone. */
    tributaryLocalTimes?: (root: ParentNode) => void;
    /** public/app.js: how the dashboard's charts write times (uPlot axis values and legend). */
    tributaryChartTime: {
      axis: (chart: unknown, splits: number[]) => string[];
      legend: (chart: unknown, seconds: number | null | undefined) => string;
      count: (chart: unknown, value: number | null | undefined) => string;
    };
  }
}
