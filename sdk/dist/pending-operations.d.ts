import type { operations } from './generated/openapi.js';
import type { Route } from './operations.js';
type Json<T> = {
    content: {
        'application/json': T;
    };
};
type Params<Path, Query = never> = {
    query?: Query;
    header?: never;
    path: Path;
    cookie?: never;
};
type WebhookObject = operations['listWebhooks']['responses'][200]['content']['application/json']['data'][number];
interface DeliverySummaryObject {
    event_id: string;
    event_type: string;
    status: 'pending' | 'sending' | 'succeeded' | 'failed';
    attempt_count: number;
    /** When the next attempt is due; null unless pending. */
    next_attempt_at: string | null;
    last_attempt_at: string | null;
    created_at: string;
}
interface DeliveryAttemptObject {
    attempt: number;
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    /** `timeout`, `connection_refused`, `tls`, `dns`, `unsafe_target`, ... or null when an answer came. */
    error: string | null;
    /** The first KiB of the receiver's answer, as text. */
    response_body: string | null;
}
interface RecoveryObject {
    id: string;
    webhook_id: string;
    since: string;
    until: string | null;
    status: 'running' | 'done';
    events_queued: number;
    created_at: string;
}
interface DeliveryQuery {
    status?: 'pending' | 'sending' | 'succeeded' | 'failed';
    event_type?: string;
    limit?: number;
    cursor?: string;
}
export interface PendingOperations {
    getWebhook: {
        parameters: Params<{
            id: string;
        }>;
        requestBody?: never;
        responses: {
            200: Json<WebhookObject>;
        };
    };
    updateWebhook: {
        parameters: Params<{
            id: string;
        }>;
        requestBody: Json<{
            url?: string;
            events?: string[];
        }>;
        responses: {
            200: Json<WebhookObject>;
        };
    };
    enableWebhook: {
        parameters: Params<{
            id: string;
        }>;
        requestBody?: never;
        responses: {
            200: Json<WebhookObject>;
        };
    };
    rotateWebhookSecret: {
        parameters: Params<{
            id: string;
        }>;
        requestBody?: never;
        responses: {
            200: Json<WebhookObject & {
                secret: string;
                previous_secret_expires_at: string;
            }>;
        };
    };
    testWebhook: {
        parameters: Params<{
            id: string;
        }>;
        requestBody?: never;
        responses: {
            202: Json<{
                event_id: string;
                type: 'ping';
            }>;
        };
    };
    listWebhookDeliveries: {
        parameters: Params<{
            id: string;
        }, DeliveryQuery>;
        requestBody?: never;
        responses: {
            200: Json<{
                data: DeliverySummaryObject[];
                pagination: {
                    next_cursor: string | null;
                    has_more: boolean;
                };
            }>;
        };
    };
    getWebhookDelivery: {
        parameters: Params<{
            id: string;
            event_id: string;
        }>;
        requestBody?: never;
        responses: {
            200: Json<DeliverySummaryObject & {
                attempts: DeliveryAttemptObject[];
            }>;
        };
    };
    resendWebhookDelivery: {
        parameters: Params<{
            id: string;
            event_id: string;
        }>;
        requestBody?: never;
        responses: {
            202: Json<DeliverySummaryObject>;
        };
    };
    recoverWebhook: {
        parameters: Params<{
            id: string;
        }>;
        requestBody: Json<{
            since: string;
            until?: string;
        }>;
        responses: {
            202: Json<RecoveryObject>;
        };
    };
    getWebhookRecovery: {
        parameters: Params<{
            id: string;
            recovery_id: string;
        }>;
        requestBody?: never;
        responses: {
            200: Json<RecoveryObject>;
        };
    };
}
export declare const pendingRoutes: Record<keyof PendingOperations, Route>;
export {};
