import { toIso } from '../shared/clock.ts';
import type { SimulcastTarget } from './simulcast.schemas.ts';
import type { SimulcastTargetRow } from './simulcast-target.table.ts';

/** The API object: the key's hint, never the key (the sealed copy is not even read here). */
export function toSimulcastTarget(row: SimulcastTargetRow): SimulcastTarget {
  return {
    id: row.id,
    object: 'simulcast_target',
    stream_id: row.stream_id,
    name: row.name,
    url: row.url,
    stream_key_hint: row.key_hint,
    enabled: row.enabled === 1,
    state: row.state,
    state_reason: row.state_reason,
    state_changed_at: toIso(row.state_changed_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
