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
  }
}
