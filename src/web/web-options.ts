import type { Services } from '../container.ts';
import type { Flash } from './session/flash.ts';

/** What web.plugin.ts gives each group of page routes it registers. */
export interface WebRoutesOptions {
  services: Services;
  /** A secret shown once on the page a form redirects to (session/flash.ts). */
  flash: Flash;
}
