import { toIso } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { ChannelKey } from './channel-key.service.ts';
import type { IngestSettings } from './ingest-settings.schemas.ts';

export function toIngestSettings(key: ChannelKey, urls: PublicUrls): IngestSettings {
  return {
    rtmp_url: urls.rtmpIngest,
    stream_key: key.streamKey,
    key_issued_at: toIso(key.issuedAt),
  };
}
