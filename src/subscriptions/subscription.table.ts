import type { Selectable } from 'kysely';

export type SubscriptionStatus = 'active' | 'cancelled';

export interface SubscriptionTable {
  id: string;
  viewer_id: string;
  creator_id: string;
  status: SubscriptionStatus;
  created_at: number;
  cancelled_at: number | null;
}

export type SubscriptionRow = Selectable<SubscriptionTable>;
