// A creator's default simulcast destinations are a template: every stream created afterwards
// starts with a copy of each (its own id, its key sealed again to that id, state idle), made in
// the stream's creation transaction. Changing a default later changes no existing stream.
import type { Db } from '../db/database.ts';
import { newId } from '../shared/ids.ts';
import type { NewStreamDefaults } from '../streams/new-stream-defaults.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { SimulcastKeys } from './simulcast-keys.ts';
import { insertTarget, listTargets } from './simulcast.repository.ts';

export class SimulcastDefaults implements NewStreamDefaults {
  private readonly keys: SimulcastKeys;

  constructor(keys: SimulcastKeys) {
    this.keys = keys;
  }

  async applyTo(trx: Db, stream: StreamRow, now: number): Promise<void> {
    const defaults = await listTargets(trx, { creatorId: stream.creator_id, streamId: null });
    let order = 0;
    for (const template of defaults) {
      const streamKey = this.keys.open(template.key_ciphertext, template.id);
      // Sealed under another master secret (SECRET_KEY changed): there is no key to copy; the
      // default itself shows nothing wrong until it is given its key again.
      if (streamKey === undefined) continue;
      const id = newId('sim');
      await insertTarget(trx, {
        id,
        creator_id: stream.creator_id,
        stream_id: stream.id,
        name: template.name,
        url: template.url,
        key_ciphertext: this.keys.seal(streamKey, id),
        key_hint: template.key_hint,
        enabled: template.enabled,
        state: 'idle',
        state_reason: null,
        state_changed_at: now,
        // One millisecond apart, so the copies list in the defaults' order.
        created_at: now + order,
        updated_at: now + order,
      });
      order++;
    }
  }
}
