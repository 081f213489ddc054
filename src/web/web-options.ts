import type { Services } from '../container.ts';

/** What web.plugin.ts gives each group of page routes it registers. */
export interface WebRoutesOptions {
  services: Services;
}
