// The page loads hls.js with a script tag (window.Hls); its types come from the package.
import type Hls from 'hls.js';

declare global {
  interface Window {
    Hls: typeof Hls;
  }
}
