// The dashboard loads uPlot with a script tag (window.uPlot); its types come from the package.
import type uPlot from 'uplot';

declare global {
  interface Window {
    uPlot: typeof uPlot;
  }
}
