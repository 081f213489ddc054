// The upload page loads tus-js-client's browser build with a script tag (window.tus); its
// types come from the package.
import type * as tus from 'tus-js-client';

declare global {
  interface Window {
    tus: typeof tus;
  }
}
