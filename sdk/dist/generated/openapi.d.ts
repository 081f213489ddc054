export interface paths {
    '/v1/ingest': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's RTMP server URL and channel stream key (created on first read) */
        get: operations['getIngestSettings'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/ingest/reset-key': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the caller's channel stream key; the old one stops working for new publishes */
        post: operations['resetChannelKey'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/ingest/simulcast-targets': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's default simulcast destinations, oldest first */
        get: operations['listSimulcastDefaults'];
        put?: never;
        /**
         * Add a simulcast destination to the caller's default (copied into every stream created afterwards); at most 5
         * @description Stream copy to another platform's RTMP or RTMPS ingest. The stream key is stored sealed and never returned (only `stream_key_hint`). Changes to a destination of a live stream take effect at its next publish (a reconnect or the next stream).
         */
        post: operations['createSimulcastDefault'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/ingest/simulcast-targets/{target_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a simulcast destination, with its state */
        get: operations['getSimulcastDefault'];
        put?: never;
        post?: never;
        /** Delete a simulcast destination (a live stream stops sending there at its next publish) */
        delete: operations['deleteSimulcastDefault'];
        options?: never;
        head?: never;
        /**
         * Change a simulcast destination's URL, key, name or whether it is enabled
         * @description Only the fields given change; `name: null` clears the label. Changes to a destination of a live stream take effect at its next publish (a reconnect or the next stream).
         */
        patch: operations['updateSimulcastDefault'];
        trace?: never;
    };
    '/v1/streams': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List streams, newest first */
        get: operations['listStreams'];
        put?: never;
        /** Create a stream, scheduled or in standby */
        post: operations['createStream'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a stream */
        get: operations['getStream'];
        put?: never;
        post?: never;
        /** Delete a stream that is not live (creator only); videos recorded from it stay */
        delete: operations['deleteStream'];
        options?: never;
        head?: never;
        /** Change a stream's details (creator only); when it goes live only before it has */
        patch: operations['updateStream'];
        trace?: never;
    };
    '/v1/streams/{id}/chat/bans': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ban a user from the channel's chat (creator or moderator) */
        post: operations['banChatUser'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/chat/bans/{user_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Lift a user's ban or timeout in the channel's chat (creator or moderator) */
        delete: operations['liftChatRestriction'];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/chat/messages': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a stream's chat messages, oldest first (deleted ones left out) */
        get: operations['listStreamChatMessages'];
        put?: never;
        /** Post a chat message as the key's user (the chat's limits and moderation apply) */
        post: operations['postStreamChatMessage'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/chat/messages/{message_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a chat message (its author, the creator or a moderator); it vanishes for every reader */
        delete: operations['deleteStreamChatMessage'];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/chat/settings': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A stream's chat settings */
        get: operations['getChatSettings'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Switch slow mode, followers-only and the length limit, also while live (creator or moderator) */
        patch: operations['updateChatSettings'];
        trace?: never;
    };
    '/v1/streams/{id}/chat/timeouts': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Time a user out of the channel's chat (creator or moderator) */
        post: operations['timeOutChatUser'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/end': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a live stream (creator only): the encoder is disconnected, the recording kept */
        post: operations['endStream'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/reset-stream-key': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a stream's secret stream key (creator only) */
        post: operations['resetStreamKey'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/simulcast-targets': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the stream's simulcast destinations, oldest first */
        get: operations['listStreamSimulcastTargets'];
        put?: never;
        /**
         * Add a simulcast destination to the stream's; at most 5
         * @description Stream copy to another platform's RTMP or RTMPS ingest. The stream key is stored sealed and never returned (only `stream_key_hint`). Changes to a destination of a live stream take effect at its next publish (a reconnect or the next stream).
         */
        post: operations['createStreamSimulcastTarget'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/simulcast-targets/{target_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a simulcast destination, with its state */
        get: operations['getStreamSimulcastTarget'];
        put?: never;
        post?: never;
        /** Delete a simulcast destination (a live stream stops sending there at its next publish) */
        delete: operations['deleteStreamSimulcastTarget'];
        options?: never;
        head?: never;
        /**
         * Change a simulcast destination's URL, key, name or whether it is enabled
         * @description Only the fields given change; `name: null` clears the label. Changes to a destination of a live stream take effect at its next publish (a reconnect or the next stream).
         */
        patch: operations['updateStreamSimulcastTarget'];
        trace?: never;
    };
    '/v1/streams/{id}/whep': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Play a realtime stream over WebRTC (WHEP): post an SDP offer, get the answer
         * @description For streams whose latency_mode is `realtime`, while live. The request body is an SDP offer (Content-Type: application/sdp), the 201 response an SDP answer (application/sdp) with the session in Location; DELETE that Location to end it. Refusals are JSON errors: fall back to the stream's HLS playback_url.
         */
        post: operations['playStreamWebRtc'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/streams/{id}/whep/{session_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a WebRTC (WHEP) playback session */
        delete: operations['endStreamWebRtc'];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/uploads': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's uploads, newest first */
        get: operations['listUploads'];
        put?: never;
        /** Start an upload: declare the file and the video, get a tus URL to send the bytes to */
        post: operations['createUpload'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/uploads/{id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an upload: its status, progress and, once ready, its video */
        get: operations['getUpload'];
        put?: never;
        post?: never;
        /** Cancel an upload that is still waiting for or receiving bytes; its bytes are removed */
        delete: operations['cancelUpload'];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/videos': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List published videos, newest first */
        get: operations['listVideos'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/videos/{id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a video */
        get: operations['getVideo'];
        put?: never;
        post?: never;
        /** Delete a published video and its media for good (creator only) */
        delete: operations['deleteVideo'];
        options?: never;
        head?: never;
        /** Change a published video's details (creator only) */
        patch: operations['updateVideo'];
        trace?: never;
    };
    '/v1/videos/{id}/chat/messages': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the chat of the stream a video was recorded from, oldest first (`offset_ms` places each in the video) */
        get: operations['listVideoChatMessages'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's webhooks (without secrets) */
        get: operations['listWebhooks'];
        put?: never;
        /** Register a webhook; its secret is shown only in this response, and a ping follows */
        post: operations['createWebhook'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook (without its secret) */
        get: operations['getWebhook'];
        put?: never;
        post?: never;
        /** Delete a webhook for good; deliveries to it stop at once */
        delete: operations['deleteWebhook'];
        options?: never;
        head?: never;
        /** Change a webhook's URL and/or events, checked as on creation */
        patch: operations['updateWebhook'];
        trace?: never;
    };
    '/v1/webhooks/{id}/deliveries': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a webhook's deliveries, newest first */
        get: operations['listWebhookDeliveries'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/deliveries/{event_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event's delivery to this webhook, with all its attempts */
        get: operations['getWebhookDelivery'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/deliveries/{event_id}/resend': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send this event to this webhook again now, with the same event id */
        post: operations['resendWebhookDelivery'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/enable': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a disabled webhook active again, with its failure count reset */
        post: operations['enableWebhook'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/recover': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send again, oldest first, the events of a time window this webhook did not receive */
        post: operations['recoverWebhook'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/recoveries/{recovery_id}': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow a recovery: running until every event of its window is queued */
        get: operations['getWebhookRecovery'];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/rotate-secret': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; the new one is shown only in this response, and deliveries carry signatures with both for 24 hours */
        post: operations['rotateWebhookSecret'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    '/v1/webhooks/{id}/test': {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a ping to this webhook now, as an ordinary logged delivery */
        post: operations['testWebhook'];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getIngestSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        key_issued_at: string;
                        /** @description Server URL to enter in the streaming software. */
                        rtmp_url: string;
                        /** @description The caller's channel stream key: secret, and it stays valid until reset. Publishing with it makes the caller's next stream go live (see docs/api-decisions.md). */
                        stream_key: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    resetChannelKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        key_issued_at: string;
                        /** @description Server URL to enter in the streaming software. */
                        rtmp_url: string;
                        /** @description The caller's channel stream key: secret, and it stays valid until reset. Publishing with it makes the caller's next stream go live (see docs/api-decisions.md). */
                        stream_key: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listSimulcastDefaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description Whether the stream is sent there when it is live. */
                            enabled: boolean;
                            /** @description Prefix `sim_`. */
                            id: string;
                            /** @description A label of your choice, such as "YouTube". */
                            name: string | null;
                            /** @enum {string} */
                            object: 'simulcast_target';
                            /**
                             * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                             * @enum {string}
                             */
                            state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            state_changed_at: string;
                            /** @description While `failing`: why, as the destination or the network said it. */
                            state_reason: string | null;
                            /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                            stream_id: string | null;
                            /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                            stream_key_hint: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            updated_at: string;
                            /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    createSimulcastDefault: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Send the stream there (default true). */
                    enabled?: boolean;
                    /** @description A label, 1 to 100 characters after trimming. */
                    name?: string;
                    /** @description The stream key the destination gave you: secret, stored sealed and never returned. Visible ASCII, at most 512 characters. */
                    stream_key: string;
                    /** @description The destination's server URL as the platform gives it (`rtmp://` or `rtmps://`, with a host; no user information, query or fragment; without the stream key), at most 1024 characters. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getSimulcastDefault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                target_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteSimulcastDefault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                target_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateSimulcastDefault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                target_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Send the stream there (default true). */
                    enabled?: boolean;
                    /** @description A label, 1 to 100 characters after trimming. */
                    name?: string | null;
                    /** @description The stream key the destination gave you: secret, stored sealed and never returned. Visible ASCII, at most 512 characters. */
                    stream_key?: string;
                    /** @description The destination's server URL as the platform gives it (`rtmp://` or `rtmps://`, with a host; no user information, query or fragment; without the stream key), at most 1024 characters. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listStreams: {
        parameters: {
            query?: {
                category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                creator_id?: string;
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
                status?: 'live' | 'scheduled' | 'ended';
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /** @enum {string} */
                            category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            creator_id: string;
                            description: string | null;
                            /** @description Prefix `str_`. */
                            id: string;
                            /**
                             * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                             * @enum {string}
                             */
                            latency_mode: 'normal' | 'low' | 'realtime';
                            /** @enum {string} */
                            privacy: 'public' | 'private';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            scheduled_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            started_at: string | null;
                            /** @enum {string} */
                            status: 'live' | 'scheduled' | 'ended';
                            /** Format: uri */
                            stream_url: string;
                            /** Format: uri */
                            thumbnail_url: string | null;
                            title: string;
                            /** @description Null unless live. */
                            viewer_count: number | null;
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    createStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /**
                     * @description Defaults to `talk`.
                     * @enum {string}
                     */
                    category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                    description?: string;
                    /**
                     * @description `low` packages 1-second segments and keeps the player near the live edge (set the encoder's keyframe interval to 1 s); `normal` uses 2-second segments; `realtime` is also sent over WebRTC (WHEP) under a second behind live, with `low`'s HLS for the players WebRTC cannot carry (set the keyframe interval to 1 s and B-frames to 0).
                     * @default normal
                     * @enum {string}
                     */
                    latency_mode?: 'normal' | 'low' | 'realtime';
                    /**
                     * @default public
                     * @enum {string}
                     */
                    privacy?: 'public' | 'private';
                    /**
                     * @description Whether the recording becomes a video when the stream ends.
                     * @default true
                     */
                    record?: boolean;
                    /**
                     * Format: date-time
                     * @description RFC 3339 with a time zone; must be in the future.
                     */
                    scheduled_at?: string;
                    /** @description 1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed. */
                    title: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        ended_at: string | null;
                        /** @description Prefix `str_`. */
                        id: string;
                        /** @description Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset). */
                        ingest?: {
                            /** @description Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process. */
                            health?: {
                                audio: {
                                    channels: number | null;
                                    codec: string;
                                    profile: string | null;
                                    sample_rate: number | null;
                                } | null;
                                bitrate_kbps: {
                                    /** @description Since the encoder connected. */
                                    average: number | null;
                                    /** @description Over the last 5 s of media. */
                                    current: number | null;
                                };
                                dropped_data: {
                                    /** @description Timestamps that went backwards. */
                                    backward_jumps: number;
                                    /** @description Jumps forward over 1 s in a track: data that never came. */
                                    timestamp_gaps: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                measured_at: string;
                                /** @description Encoder connections so far (1 + reconnects). */
                                publishes: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                reconnect_deadline: string | null;
                                /**
                                 * @description `reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.
                                 * @enum {string}
                                 */
                                state: 'publishing' | 'reconnecting';
                                /** @description The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then. */
                                transcoding: {
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 timestamp in UTC with milliseconds.
                                     */
                                    decided_at: string;
                                    /**
                                     * @description `ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.
                                     * @enum {string}
                                     */
                                    decision: 'ladder' | 'copy_only';
                                    /** @description The reason, explained. */
                                    message: string | null;
                                    /**
                                     * @description Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.
                                     * @enum {string|null}
                                     */
                                    reason: 'no_cpu_room' | 'fell_behind' | 'source_too_small' | 'no_picture_size' | 'stream_copy_only' | null;
                                    /** @description What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...). */
                                    renditions: string[];
                                } | null;
                                video: {
                                    codec: string;
                                    /** @description Frames per second over the last 5 s. */
                                    frame_rate: number | null;
                                    height: number | null;
                                    /** @description Between the last two keyframes. */
                                    keyframe_interval_seconds: number | null;
                                    level: string | null;
                                    profile: string | null;
                                    width: number | null;
                                } | null;
                                warnings: {
                                    /** @enum {string} */
                                    code: 'keyframe_interval_too_long' | 'bitrate_too_high' | 'bitrate_unstable' | 'no_audio' | 'frame_rate_unstable' | 'publisher_disconnected' | 'realtime_reencoded';
                                    /** @description What is wrong and what to change in the encoder. */
                                    message: string;
                                }[];
                            } | null;
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
                        /**
                         * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                         * @enum {string}
                         */
                        latency_mode: 'normal' | 'low' | 'realtime';
                        peak_viewer_count: number | null;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        scheduled_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        started_at: string | null;
                        /** @enum {string} */
                        status: 'live' | 'scheduled' | 'ended';
                        /** Format: uri */
                        stream_url: string;
                        /** Format: uri */
                        thumbnail_url: string | null;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description Null unless live. */
                        viewer_count: number | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        ended_at: string | null;
                        /** @description Prefix `str_`. */
                        id: string;
                        /** @description Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset). */
                        ingest?: {
                            /** @description Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process. */
                            health?: {
                                audio: {
                                    channels: number | null;
                                    codec: string;
                                    profile: string | null;
                                    sample_rate: number | null;
                                } | null;
                                bitrate_kbps: {
                                    /** @description Since the encoder connected. */
                                    average: number | null;
                                    /** @description Over the last 5 s of media. */
                                    current: number | null;
                                };
                                dropped_data: {
                                    /** @description Timestamps that went backwards. */
                                    backward_jumps: number;
                                    /** @description Jumps forward over 1 s in a track: data that never came. */
                                    timestamp_gaps: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                measured_at: string;
                                /** @description Encoder connections so far (1 + reconnects). */
                                publishes: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                reconnect_deadline: string | null;
                                /**
                                 * @description `reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.
                                 * @enum {string}
                                 */
                                state: 'publishing' | 'reconnecting';
                                /** @description The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then. */
                                transcoding: {
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 timestamp in UTC with milliseconds.
                                     */
                                    decided_at: string;
                                    /**
                                     * @description `ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.
                                     * @enum {string}
                                     */
                                    decision: 'ladder' | 'copy_only';
                                    /** @description The reason, explained. */
                                    message: string | null;
                                    /**
                                     * @description Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.
                                     * @enum {string|null}
                                     */
                                    reason: 'no_cpu_room' | 'fell_behind' | 'source_too_small' | 'no_picture_size' | 'stream_copy_only' | null;
                                    /** @description What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...). */
                                    renditions: string[];
                                } | null;
                                video: {
                                    codec: string;
                                    /** @description Frames per second over the last 5 s. */
                                    frame_rate: number | null;
                                    height: number | null;
                                    /** @description Between the last two keyframes. */
                                    keyframe_interval_seconds: number | null;
                                    level: string | null;
                                    profile: string | null;
                                    width: number | null;
                                } | null;
                                warnings: {
                                    /** @enum {string} */
                                    code: 'keyframe_interval_too_long' | 'bitrate_too_high' | 'bitrate_unstable' | 'no_audio' | 'frame_rate_unstable' | 'publisher_disconnected' | 'realtime_reencoded';
                                    /** @description What is wrong and what to change in the encoder. */
                                    message: string;
                                }[];
                            } | null;
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
                        /**
                         * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                         * @enum {string}
                         */
                        latency_mode: 'normal' | 'low' | 'realtime';
                        peak_viewer_count: number | null;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        scheduled_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        started_at: string | null;
                        /** @enum {string} */
                        status: 'live' | 'scheduled' | 'ended';
                        /** Format: uri */
                        stream_url: string;
                        /** Format: uri */
                        thumbnail_url: string | null;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description Null unless live. */
                        viewer_count: number | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateStream: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Any of the fields; a field not given is left as it is. Title, description, category and privacy change at any time; scheduled_at and latency_mode only while the stream has not gone live. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Friday jam, part 2",
                 *       "scheduled_at": "2030-01-01T18:00:00Z"
                 *     }
                 */
                'application/json': {
                    /** @enum {string} */
                    category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                    /** @description At most 2,000 characters; null clears it. */
                    description?: string | null;
                    /**
                     * @description Only before the stream goes live (else 409).
                     * @enum {string}
                     */
                    latency_mode?: 'normal' | 'low' | 'realtime';
                    /** @enum {string} */
                    privacy?: 'public' | 'private';
                    /**
                     * Format: date-time
                     * @description RFC 3339 with a time zone, in the future; null puts the stream in standby. Only before the stream goes live (else 409).
                     */
                    scheduled_at?: string | null;
                    /** @description 1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        ended_at: string | null;
                        /** @description Prefix `str_`. */
                        id: string;
                        /** @description Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset). */
                        ingest?: {
                            /** @description Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process. */
                            health?: {
                                audio: {
                                    channels: number | null;
                                    codec: string;
                                    profile: string | null;
                                    sample_rate: number | null;
                                } | null;
                                bitrate_kbps: {
                                    /** @description Since the encoder connected. */
                                    average: number | null;
                                    /** @description Over the last 5 s of media. */
                                    current: number | null;
                                };
                                dropped_data: {
                                    /** @description Timestamps that went backwards. */
                                    backward_jumps: number;
                                    /** @description Jumps forward over 1 s in a track: data that never came. */
                                    timestamp_gaps: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                measured_at: string;
                                /** @description Encoder connections so far (1 + reconnects). */
                                publishes: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                reconnect_deadline: string | null;
                                /**
                                 * @description `reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.
                                 * @enum {string}
                                 */
                                state: 'publishing' | 'reconnecting';
                                /** @description The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then. */
                                transcoding: {
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 timestamp in UTC with milliseconds.
                                     */
                                    decided_at: string;
                                    /**
                                     * @description `ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.
                                     * @enum {string}
                                     */
                                    decision: 'ladder' | 'copy_only';
                                    /** @description The reason, explained. */
                                    message: string | null;
                                    /**
                                     * @description Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.
                                     * @enum {string|null}
                                     */
                                    reason: 'no_cpu_room' | 'fell_behind' | 'source_too_small' | 'no_picture_size' | 'stream_copy_only' | null;
                                    /** @description What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...). */
                                    renditions: string[];
                                } | null;
                                video: {
                                    codec: string;
                                    /** @description Frames per second over the last 5 s. */
                                    frame_rate: number | null;
                                    height: number | null;
                                    /** @description Between the last two keyframes. */
                                    keyframe_interval_seconds: number | null;
                                    level: string | null;
                                    profile: string | null;
                                    width: number | null;
                                } | null;
                                warnings: {
                                    /** @enum {string} */
                                    code: 'keyframe_interval_too_long' | 'bitrate_too_high' | 'bitrate_unstable' | 'no_audio' | 'frame_rate_unstable' | 'publisher_disconnected' | 'realtime_reencoded';
                                    /** @description What is wrong and what to change in the encoder. */
                                    message: string;
                                }[];
                            } | null;
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
                        /**
                         * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                         * @enum {string}
                         */
                        latency_mode: 'normal' | 'low' | 'realtime';
                        peak_viewer_count: number | null;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        scheduled_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        started_at: string | null;
                        /** @enum {string} */
                        status: 'live' | 'scheduled' | 'ended';
                        /** Format: uri */
                        stream_url: string;
                        /** Format: uri */
                        thumbnail_url: string | null;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description Null unless live. */
                        viewer_count: number | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    banChatUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    reason?: string;
                    user_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        kind: 'ban' | 'timeout';
                        stream_id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        until: string | null;
                        user_id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    liftChatRestriction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        lifted: boolean;
                        user_id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listStreamChatMessages: {
        parameters: {
            query?: {
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            author: {
                                id: string;
                                /** @description The account's display name. */
                                name: string;
                                /**
                                 * @description How the author stood in the chat when they wrote.
                                 * @enum {string}
                                 */
                                role: 'creator' | 'moderator' | 'viewer';
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description Prefix `chm_`. */
                            id: string;
                            /** @description Milliseconds after the stream started (the place in its recording); null when posted before it started. */
                            offset_ms: number | null;
                            /** @description The message's place in its stream's chat: 1, 2, 3… in the order every reader sees them. */
                            seq: number;
                            stream_id: string;
                            /** @description Plain text, never markup: render it as text (links become safe anchors in the web app). */
                            text: string;
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    postStreamChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description At most the room's `max_length` characters (500 unless the creator lowered it), one line. */
                    text: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        author: {
                            id: string;
                            /** @description The account's display name. */
                            name: string;
                            /**
                             * @description How the author stood in the chat when they wrote.
                             * @enum {string}
                             */
                            role: 'creator' | 'moderator' | 'viewer';
                        };
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Prefix `chm_`. */
                        id: string;
                        /** @description Milliseconds after the stream started (the place in its recording); null when posted before it started. */
                        offset_ms: number | null;
                        /** @description The message's place in its stream's chat: 1, 2, 3… in the order every reader sees them. */
                        seq: number;
                        stream_id: string;
                        /** @description Plain text, never markup: render it as text (links become safe anchors in the web app). */
                        text: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteStreamChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getChatSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @description Only the creator's subscribers may post. */
                        followers_only: boolean;
                        /** @description Characters a message may have. */
                        max_length: number;
                        /** @description One message per this many seconds per viewer; 0 is off. */
                        slow_mode_seconds: number;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateChatSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    followers_only?: boolean;
                    max_length?: number;
                    slow_mode_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @description Only the creator's subscribers may post. */
                        followers_only: boolean;
                        /** @description Characters a message may have. */
                        max_length: number;
                        /** @description One message per this many seconds per viewer; 0 is off. */
                        slow_mode_seconds: number;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    timeOutChatUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    duration_seconds: number;
                    reason?: string;
                    user_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        kind: 'ban' | 'timeout';
                        stream_id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        until: string | null;
                        user_id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    endStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        ended_at: string | null;
                        /** @description Prefix `str_`. */
                        id: string;
                        /** @description Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset). */
                        ingest?: {
                            /** @description Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process. */
                            health?: {
                                audio: {
                                    channels: number | null;
                                    codec: string;
                                    profile: string | null;
                                    sample_rate: number | null;
                                } | null;
                                bitrate_kbps: {
                                    /** @description Since the encoder connected. */
                                    average: number | null;
                                    /** @description Over the last 5 s of media. */
                                    current: number | null;
                                };
                                dropped_data: {
                                    /** @description Timestamps that went backwards. */
                                    backward_jumps: number;
                                    /** @description Jumps forward over 1 s in a track: data that never came. */
                                    timestamp_gaps: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                measured_at: string;
                                /** @description Encoder connections so far (1 + reconnects). */
                                publishes: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                reconnect_deadline: string | null;
                                /**
                                 * @description `reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.
                                 * @enum {string}
                                 */
                                state: 'publishing' | 'reconnecting';
                                /** @description The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then. */
                                transcoding: {
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 timestamp in UTC with milliseconds.
                                     */
                                    decided_at: string;
                                    /**
                                     * @description `ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.
                                     * @enum {string}
                                     */
                                    decision: 'ladder' | 'copy_only';
                                    /** @description The reason, explained. */
                                    message: string | null;
                                    /**
                                     * @description Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.
                                     * @enum {string|null}
                                     */
                                    reason: 'no_cpu_room' | 'fell_behind' | 'source_too_small' | 'no_picture_size' | 'stream_copy_only' | null;
                                    /** @description What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...). */
                                    renditions: string[];
                                } | null;
                                video: {
                                    codec: string;
                                    /** @description Frames per second over the last 5 s. */
                                    frame_rate: number | null;
                                    height: number | null;
                                    /** @description Between the last two keyframes. */
                                    keyframe_interval_seconds: number | null;
                                    level: string | null;
                                    profile: string | null;
                                    width: number | null;
                                } | null;
                                warnings: {
                                    /** @enum {string} */
                                    code: 'keyframe_interval_too_long' | 'bitrate_too_high' | 'bitrate_unstable' | 'no_audio' | 'frame_rate_unstable' | 'publisher_disconnected' | 'realtime_reencoded';
                                    /** @description What is wrong and what to change in the encoder. */
                                    message: string;
                                }[];
                            } | null;
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
                        /**
                         * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                         * @enum {string}
                         */
                        latency_mode: 'normal' | 'low' | 'realtime';
                        peak_viewer_count: number | null;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        scheduled_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        started_at: string | null;
                        /** @enum {string} */
                        status: 'live' | 'scheduled' | 'ended';
                        /** Format: uri */
                        stream_url: string;
                        /** Format: uri */
                        thumbnail_url: string | null;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description Null unless live. */
                        viewer_count: number | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    resetStreamKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        ended_at: string | null;
                        /** @description Prefix `str_`. */
                        id: string;
                        /** @description Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset). */
                        ingest?: {
                            /** @description Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process. */
                            health?: {
                                audio: {
                                    channels: number | null;
                                    codec: string;
                                    profile: string | null;
                                    sample_rate: number | null;
                                } | null;
                                bitrate_kbps: {
                                    /** @description Since the encoder connected. */
                                    average: number | null;
                                    /** @description Over the last 5 s of media. */
                                    current: number | null;
                                };
                                dropped_data: {
                                    /** @description Timestamps that went backwards. */
                                    backward_jumps: number;
                                    /** @description Jumps forward over 1 s in a track: data that never came. */
                                    timestamp_gaps: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                measured_at: string;
                                /** @description Encoder connections so far (1 + reconnects). */
                                publishes: number;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp in UTC with milliseconds.
                                 */
                                reconnect_deadline: string | null;
                                /**
                                 * @description `reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.
                                 * @enum {string}
                                 */
                                state: 'publishing' | 'reconnecting';
                                /** @description The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then. */
                                transcoding: {
                                    /**
                                     * Format: date-time
                                     * @description ISO 8601 timestamp in UTC with milliseconds.
                                     */
                                    decided_at: string;
                                    /**
                                     * @description `ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.
                                     * @enum {string}
                                     */
                                    decision: 'ladder' | 'copy_only';
                                    /** @description The reason, explained. */
                                    message: string | null;
                                    /**
                                     * @description Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.
                                     * @enum {string|null}
                                     */
                                    reason: 'no_cpu_room' | 'fell_behind' | 'source_too_small' | 'no_picture_size' | 'stream_copy_only' | null;
                                    /** @description What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...). */
                                    renditions: string[];
                                } | null;
                                video: {
                                    codec: string;
                                    /** @description Frames per second over the last 5 s. */
                                    frame_rate: number | null;
                                    height: number | null;
                                    /** @description Between the last two keyframes. */
                                    keyframe_interval_seconds: number | null;
                                    level: string | null;
                                    profile: string | null;
                                    width: number | null;
                                } | null;
                                warnings: {
                                    /** @enum {string} */
                                    code: 'keyframe_interval_too_long' | 'bitrate_too_high' | 'bitrate_unstable' | 'no_audio' | 'frame_rate_unstable' | 'publisher_disconnected' | 'realtime_reencoded';
                                    /** @description What is wrong and what to change in the encoder. */
                                    message: string;
                                }[];
                            } | null;
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
                        /**
                         * @description `normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).
                         * @enum {string}
                         */
                        latency_mode: 'normal' | 'low' | 'realtime';
                        peak_viewer_count: number | null;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        scheduled_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        started_at: string | null;
                        /** @enum {string} */
                        status: 'live' | 'scheduled' | 'ended';
                        /** Format: uri */
                        stream_url: string;
                        /** Format: uri */
                        thumbnail_url: string | null;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description Null unless live. */
                        viewer_count: number | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listStreamSimulcastTargets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description Whether the stream is sent there when it is live. */
                            enabled: boolean;
                            /** @description Prefix `sim_`. */
                            id: string;
                            /** @description A label of your choice, such as "YouTube". */
                            name: string | null;
                            /** @enum {string} */
                            object: 'simulcast_target';
                            /**
                             * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                             * @enum {string}
                             */
                            state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            state_changed_at: string;
                            /** @description While `failing`: why, as the destination or the network said it. */
                            state_reason: string | null;
                            /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                            stream_id: string | null;
                            /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                            stream_key_hint: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            updated_at: string;
                            /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    createStreamSimulcastTarget: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Send the stream there (default true). */
                    enabled?: boolean;
                    /** @description A label, 1 to 100 characters after trimming. */
                    name?: string;
                    /** @description The stream key the destination gave you: secret, stored sealed and never returned. Visible ASCII, at most 512 characters. */
                    stream_key: string;
                    /** @description The destination's server URL as the platform gives it (`rtmp://` or `rtmps://`, with a host; no user information, query or fragment; without the stream key), at most 1024 characters. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getStreamSimulcastTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                target_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteStreamSimulcastTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                target_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateStreamSimulcastTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                target_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Send the stream there (default true). */
                    enabled?: boolean;
                    /** @description A label, 1 to 100 characters after trimming. */
                    name?: string | null;
                    /** @description The stream key the destination gave you: secret, stored sealed and never returned. Visible ASCII, at most 512 characters. */
                    stream_key?: string;
                    /** @description The destination's server URL as the platform gives it (`rtmp://` or `rtmps://`, with a host; no user information, query or fragment; without the stream key), at most 1024 characters. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Whether the stream is sent there when it is live. */
                        enabled: boolean;
                        /** @description Prefix `sim_`. */
                        id: string;
                        /** @description A label of your choice, such as "YouTube". */
                        name: string | null;
                        /** @enum {string} */
                        object: 'simulcast_target';
                        /**
                         * @description `idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).
                         * @enum {string}
                         */
                        state: 'idle' | 'connecting' | 'live' | 'failing' | 'stopped';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        state_changed_at: string;
                        /** @description While `failing`: why, as the destination or the network said it. */
                        state_reason: string | null;
                        /** @description The stream it belongs to; null for one of the caller's channel defaults. */
                        stream_id: string | null;
                        /** @description The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned. */
                        stream_key_hint: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** @description The destination's server URL (`rtmp://` or `rtmps://`), without the stream key. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    playStreamWebRtc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/sdp': string;
            };
        };
        responses: {
            /** @description The SDP answer. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/sdp': string;
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    endStreamWebRtc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listUploads: {
        parameters: {
            query?: {
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            bytes_received: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            creator_id: string;
                            /** UploadError */
                            error: {
                                /** @description Why: `invalid_media` (not a video we can read), `no_video_track`, `processing_failed`, `upload_expired`. */
                                code: string;
                                message: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            expires_at: string;
                            /** @description Prefix `upl_`. */
                            id: string;
                            /** @description Percent of the current stage: bytes received while waiting or uploading, processing while processing; 100 when ready. */
                            progress: number;
                            /** @description Bytes the file has, as declared at creation. */
                            size: number;
                            /**
                             * @description `waiting` (no bytes yet) -> `uploading` -> `processing` (all bytes in) -> `ready` (the video is published), or `errored` / `cancelled`.
                             * @enum {string}
                             */
                            status: 'waiting' | 'uploading' | 'processing' | 'ready' | 'errored' | 'cancelled';
                            /** @description The video's title. */
                            title: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            updated_at: string;
                            /**
                             * Format: uri
                             * @description The tus 1.0 upload resource for exactly this file: HEAD it for the offset, PATCH bytes to it. It is the credential for this upload alone (no API key needed). Null once the upload no longer accepts bytes.
                             */
                            upload_url: string | null;
                            /** @description The video made from the upload; null until it exists. */
                            video_id: string | null;
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /**
                     * @description Defaults to `talk`.
                     * @enum {string}
                     */
                    category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                    /** @description At most 100, kept as given and sorted by start. */
                    chapters?: {
                        start_seconds: number;
                        title: string;
                    }[];
                    description?: string;
                    /**
                     * @default public
                     * @enum {string}
                     */
                    privacy?: 'public' | 'private';
                    /** @description The file's size in bytes; at most UPLOAD_MAX_BYTES. */
                    size: number;
                    /** @description At most 20, each 1 to 50 characters; duplicates are dropped. */
                    tags?: string[];
                    /** @description 1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed. */
                    title: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        bytes_received: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        /** UploadError */
                        error: {
                            /** @description Why: `invalid_media` (not a video we can read), `no_video_track`, `processing_failed`, `upload_expired`. */
                            code: string;
                            message: string;
                        } | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        expires_at: string;
                        /** @description Prefix `upl_`. */
                        id: string;
                        /** @description Percent of the current stage: bytes received while waiting or uploading, processing while processing; 100 when ready. */
                        progress: number;
                        /** @description Bytes the file has, as declared at creation. */
                        size: number;
                        /**
                         * @description `waiting` (no bytes yet) -> `uploading` -> `processing` (all bytes in) -> `ready` (the video is published), or `errored` / `cancelled`.
                         * @enum {string}
                         */
                        status: 'waiting' | 'uploading' | 'processing' | 'ready' | 'errored' | 'cancelled';
                        /** @description The video's title. */
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /**
                         * Format: uri
                         * @description The tus 1.0 upload resource for exactly this file: HEAD it for the offset, PATCH bytes to it. It is the credential for this upload alone (no API key needed). Null once the upload no longer accepts bytes.
                         */
                        upload_url: string | null;
                        /** @description The video made from the upload; null until it exists. */
                        video_id: string | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        bytes_received: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        /** UploadError */
                        error: {
                            /** @description Why: `invalid_media` (not a video we can read), `no_video_track`, `processing_failed`, `upload_expired`. */
                            code: string;
                            message: string;
                        } | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        expires_at: string;
                        /** @description Prefix `upl_`. */
                        id: string;
                        /** @description Percent of the current stage: bytes received while waiting or uploading, processing while processing; 100 when ready. */
                        progress: number;
                        /** @description Bytes the file has, as declared at creation. */
                        size: number;
                        /**
                         * @description `waiting` (no bytes yet) -> `uploading` -> `processing` (all bytes in) -> `ready` (the video is published), or `errored` / `cancelled`.
                         * @enum {string}
                         */
                        status: 'waiting' | 'uploading' | 'processing' | 'ready' | 'errored' | 'cancelled';
                        /** @description The video's title. */
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /**
                         * Format: uri
                         * @description The tus 1.0 upload resource for exactly this file: HEAD it for the offset, PATCH bytes to it. It is the credential for this upload alone (no API key needed). Null once the upload no longer accepts bytes.
                         */
                        upload_url: string | null;
                        /** @description The video made from the upload; null until it exists. */
                        video_id: string | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    cancelUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        bytes_received: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        /** UploadError */
                        error: {
                            /** @description Why: `invalid_media` (not a video we can read), `no_video_track`, `processing_failed`, `upload_expired`. */
                            code: string;
                            message: string;
                        } | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        expires_at: string;
                        /** @description Prefix `upl_`. */
                        id: string;
                        /** @description Percent of the current stage: bytes received while waiting or uploading, processing while processing; 100 when ready. */
                        progress: number;
                        /** @description Bytes the file has, as declared at creation. */
                        size: number;
                        /**
                         * @description `waiting` (no bytes yet) -> `uploading` -> `processing` (all bytes in) -> `ready` (the video is published), or `errored` / `cancelled`.
                         * @enum {string}
                         */
                        status: 'waiting' | 'uploading' | 'processing' | 'ready' | 'errored' | 'cancelled';
                        /** @description The video's title. */
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /**
                         * Format: uri
                         * @description The tus 1.0 upload resource for exactly this file: HEAD it for the offset, PATCH bytes to it. It is the credential for this upload alone (no API key needed). Null once the upload no longer accepts bytes.
                         */
                        upload_url: string | null;
                        /** @description The video made from the upload; null until it exists. */
                        video_id: string | null;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listVideos: {
        parameters: {
            query?: {
                category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                creator_id?: string;
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /** @enum {string} */
                            category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            creator_id: string;
                            description: string | null;
                            duration_seconds: number;
                            /** @description Prefix `vid_`. */
                            id: string;
                            /** @enum {string} */
                            privacy: 'public' | 'private';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            published_at: string;
                            source_stream_id: string | null;
                            /** Format: uri */
                            thumbnail_url: string;
                            title: string;
                            /** Format: uri */
                            video_url: string;
                            view_count: number;
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        chapters: {
                            start_seconds: number;
                            title: string;
                        }[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        duration_seconds: number;
                        /** @description Prefix `vid_`. */
                        id: string;
                        /** Format: uri */
                        playback_url: string;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        published_at: string;
                        source_stream_id: string | null;
                        tags: string[];
                        /** Format: uri */
                        thumbnail_url: string;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** Format: uri */
                        video_url: string;
                        view_count: number;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateVideo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Any of the fields; a field not given is left as it is. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Friday jam (full set)",
                 *       "tags": [
                 *         "jazz",
                 *         "live"
                 *       ]
                 *     }
                 */
                'application/json': {
                    /** @enum {string} */
                    category?: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                    /** @description Replaces the chapters (at most 100); each starts within the video. Returned sorted by start. */
                    chapters?: {
                        start_seconds: number;
                        title: string;
                    }[];
                    /** @description At most 2,000 characters; null clears it. */
                    description?: string | null;
                    /** @enum {string} */
                    privacy?: 'public' | 'private';
                    /** @description Replaces the tags: at most 20, each 1 to 50 characters; duplicates are dropped. */
                    tags?: string[];
                    /** @description 1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed. */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {string} */
                        category: 'gaming' | 'music' | 'coding' | 'talk' | 'art' | 'just-chatting' | 'sports' | 'education' | 'science-and-technology' | 'travel' | 'food' | 'fitness';
                        chapters: {
                            start_seconds: number;
                            title: string;
                        }[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        creator_id: string;
                        description: string | null;
                        duration_seconds: number;
                        /** @description Prefix `vid_`. */
                        id: string;
                        /** Format: uri */
                        playback_url: string;
                        /** @enum {string} */
                        privacy: 'public' | 'private';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        published_at: string;
                        source_stream_id: string | null;
                        tags: string[];
                        /** Format: uri */
                        thumbnail_url: string;
                        title: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        updated_at: string;
                        /** Format: uri */
                        video_url: string;
                        view_count: number;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listVideoChatMessages: {
        parameters: {
            query?: {
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            author: {
                                id: string;
                                /** @description The account's display name. */
                                name: string;
                                /**
                                 * @description How the author stood in the chat when they wrote.
                                 * @enum {string}
                                 */
                                role: 'creator' | 'moderator' | 'viewer';
                            };
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description Prefix `chm_`. */
                            id: string;
                            /** @description Milliseconds after the stream started (the place in its recording); null when posted before it started. */
                            offset_ms: number | null;
                            /** @description The message's place in its stream's chat: 1, 2, 3… in the order every reader sees them. */
                            seq: number;
                            stream_id: string;
                            /** @description Plain text, never markup: render it as text (links become safe anchors in the web app). */
                            text: string;
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description Subscribed event types, or `["*"]`. */
                            events: string[];
                            /** @description Prefix `wh_`. */
                            id: string;
                            /** @enum {string} */
                            status: 'active' | 'disabled';
                            /** @description The registered HTTPS endpoint. */
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the request safe to retry: a repeat with the same key and the same body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. 1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account. */
                'idempotency-key'?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Event types (stream.started, stream.ended, video.published, subscription.created, subscription.cancelled, stream.updated, stream.deleted, video.updated, video.deleted, upload.processing, upload.ready, upload.errored, upload.cancelled, simulcast_target.connecting, simulcast_target.live, simulcast_target.failing, simulcast_target.stopped, chat_message.created, chat_message.deleted, chat_user.timed_out, chat_user.banned, chat_user.restriction_lifted, chat_settings.updated, chat_moderator.added, chat_moderator.removed, chat_blocked_words.updated, ping), or the single item `*` for all current and future ones. */
                    events: string[];
                    /** @description An absolute https:// URL. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Subscribed event types, or `["*"]`. */
                        events: string[];
                        /** @description Prefix `wh_`. */
                        id: string;
                        /** @description Signing secret. Shown only in this response. */
                        secret: string;
                        /** @enum {string} */
                        status: 'active' | 'disabled';
                        /** @description The registered HTTPS endpoint. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: the first request with the key is still running (retry later). Other 409s are the route's own. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_3fQk9ZrT1bX8cV2nM5pL7a",
                     *       "url": "https://example.com/hooks/tributary",
                     *       "events": [
                     *         "stream.started",
                     *         "stream.ended"
                     *       ],
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Subscribed event types, or `["*"]`. */
                        events: string[];
                        /** @description Prefix `wh_`. */
                        id: string;
                        /** @enum {string} */
                        status: 'active' | 'disabled';
                        /** @description The registered HTTPS endpoint. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        /** @enum {boolean} */
                        deleted: true;
                        id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        /** @description At least one of the two; a field not given is left as it is. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "events": [
                 *         "stream.started",
                 *         "stream.ended"
                 *       ]
                 *     }
                 */
                'application/json': {
                    /** @description Replaces the subscribed event types (same rules as on creation). */
                    events?: string[];
                    /** @description An absolute https:// URL, checked as on creation. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_3fQk9ZrT1bX8cV2nM5pL7a",
                     *       "url": "https://example.com/hooks/tributary",
                     *       "events": [
                     *         "stream.started",
                     *         "stream.ended"
                     *       ],
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Subscribed event types, or `["*"]`. */
                        events: string[];
                        /** @description Prefix `wh_`. */
                        id: string;
                        /** @enum {string} */
                        status: 'active' | 'disabled';
                        /** @description The registered HTTPS endpoint. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description The previous page's `pagination.next_cursor`. */
                cursor?: string;
                event_type?: 'stream.started' | 'stream.ended' | 'video.published' | 'subscription.created' | 'subscription.cancelled' | 'stream.updated' | 'stream.deleted' | 'video.updated' | 'video.deleted' | 'upload.processing' | 'upload.ready' | 'upload.errored' | 'upload.cancelled' | 'simulcast_target.connecting' | 'simulcast_target.live' | 'simulcast_target.failing' | 'simulcast_target.stopped' | 'chat_message.created' | 'chat_message.deleted' | 'chat_user.timed_out' | 'chat_user.banned' | 'chat_user.restriction_lifted' | 'chat_settings.updated' | 'chat_moderator.added' | 'chat_moderator.removed' | 'chat_blocked_words.updated' | 'ping';
                /** @description Page size. */
                limit?: number;
                status?: 'pending' | 'sending' | 'succeeded' | 'failed';
            };
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        data: {
                            /** @description Attempts started so far. */
                            attempt_count: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            created_at: string;
                            /** @description The event, prefix `evt_`; the same on every attempt. */
                            event_id: string;
                            /** @enum {string} */
                            event_type: 'stream.started' | 'stream.ended' | 'video.published' | 'subscription.created' | 'subscription.cancelled' | 'stream.updated' | 'stream.deleted' | 'video.updated' | 'video.deleted' | 'upload.processing' | 'upload.ready' | 'upload.errored' | 'upload.cancelled' | 'simulcast_target.connecting' | 'simulcast_target.live' | 'simulcast_target.failing' | 'simulcast_target.stopped' | 'chat_message.created' | 'chat_message.deleted' | 'chat_user.timed_out' | 'chat_user.banned' | 'chat_user.restriction_lifted' | 'chat_settings.updated' | 'chat_moderator.added' | 'chat_moderator.removed' | 'chat_blocked_words.updated' | 'ping';
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            last_attempt_at: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            next_attempt_at: string | null;
                            /**
                             * @description pending: waiting for its next attempt; sending: an attempt is in flight; succeeded and failed are settled.
                             * @enum {string}
                             */
                            status: 'pending' | 'sending' | 'succeeded' | 'failed';
                        }[];
                        pagination: {
                            has_more: boolean;
                            /** @description Pass as `cursor` to get the next page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event, prefix `evt_`. */
                event_id: string;
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event_id": "evt_8LmN2pQ4rS6tU8vW0xY2zA",
                     *       "event_type": "stream.started",
                     *       "status": "failed",
                     *       "attempt_count": 2,
                     *       "next_attempt_at": null,
                     *       "last_attempt_at": "2026-11-23T10:15:02.120Z",
                     *       "created_at": "2026-11-22T10:14:58.004Z",
                     *       "attempts": [
                     *         {
                     *           "attempt": 1,
                     *           "started_at": "2026-11-22T10:14:58.010Z",
                     *           "duration_ms": 5001,
                     *           "status_code": null,
                     *           "error": "timeout",
                     *           "response_body": null
                     *         },
                     *         {
                     *           "attempt": 2,
                     *           "started_at": "2026-11-22T10:16:01.400Z",
                     *           "duration_ms": 48,
                     *           "status_code": 500,
                     *           "error": null,
                     *           "response_body": "{\"error\":\"database unavailable\"}"
                     *         }
                     *       ]
                     *     }
                     */
                    'application/json': {
                        /** @description Attempts started so far. */
                        attempt_count: number;
                        /** @description Oldest first. */
                        attempts: {
                            /** @description Numbered from 1; a resend continues the count. */
                            attempt: number;
                            duration_ms: number;
                            /** @description Why no answer came: timeout, connection_refused, connection_reset, dns, tls, unsafe_target or network; null when answered. */
                            error: string | null;
                            /** @description The first 1 KiB of the answer, as text. */
                            response_body: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp in UTC with milliseconds.
                             */
                            started_at: string;
                            /** @description The HTTP status, or null when no answer came. */
                            status_code: number | null;
                        }[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description The event, prefix `evt_`; the same on every attempt. */
                        event_id: string;
                        /** @enum {string} */
                        event_type: 'stream.started' | 'stream.ended' | 'video.published' | 'subscription.created' | 'subscription.cancelled' | 'stream.updated' | 'stream.deleted' | 'video.updated' | 'video.deleted' | 'upload.processing' | 'upload.ready' | 'upload.errored' | 'upload.cancelled' | 'simulcast_target.connecting' | 'simulcast_target.live' | 'simulcast_target.failing' | 'simulcast_target.stopped' | 'chat_message.created' | 'chat_message.deleted' | 'chat_user.timed_out' | 'chat_user.banned' | 'chat_user.restriction_lifted' | 'chat_settings.updated' | 'chat_moderator.added' | 'chat_moderator.removed' | 'chat_blocked_words.updated' | 'ping';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        last_attempt_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        next_attempt_at: string | null;
                        /**
                         * @description pending: waiting for its next attempt; sending: an attempt is in flight; succeeded and failed are settled.
                         * @enum {string}
                         */
                        status: 'pending' | 'sending' | 'succeeded' | 'failed';
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event, prefix `evt_`. */
                event_id: string;
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event_id": "evt_8LmN2pQ4rS6tU8vW0xY2zA",
                     *       "event_type": "stream.started",
                     *       "status": "failed",
                     *       "attempt_count": 5,
                     *       "next_attempt_at": null,
                     *       "last_attempt_at": "2026-11-23T10:15:02.120Z",
                     *       "created_at": "2026-11-22T10:14:58.004Z"
                     *     }
                     */
                    'application/json': {
                        /** @description Attempts started so far. */
                        attempt_count: number;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description The event, prefix `evt_`; the same on every attempt. */
                        event_id: string;
                        /** @enum {string} */
                        event_type: 'stream.started' | 'stream.ended' | 'video.published' | 'subscription.created' | 'subscription.cancelled' | 'stream.updated' | 'stream.deleted' | 'video.updated' | 'video.deleted' | 'upload.processing' | 'upload.ready' | 'upload.errored' | 'upload.cancelled' | 'simulcast_target.connecting' | 'simulcast_target.live' | 'simulcast_target.failing' | 'simulcast_target.stopped' | 'chat_message.created' | 'chat_message.deleted' | 'chat_user.timed_out' | 'chat_user.banned' | 'chat_user.restriction_lifted' | 'chat_settings.updated' | 'chat_moderator.added' | 'chat_moderator.removed' | 'chat_blocked_words.updated' | 'ping';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        last_attempt_at: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        next_attempt_at: string | null;
                        /**
                         * @description pending: waiting for its next attempt; sending: an attempt is in flight; succeeded and failed are settled.
                         * @enum {string}
                         */
                        status: 'pending' | 'sending' | 'succeeded' | 'failed';
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_3fQk9ZrT1bX8cV2nM5pL7a",
                     *       "url": "https://example.com/hooks/tributary",
                     *       "events": [
                     *         "stream.started",
                     *         "stream.ended"
                     *       ],
                     *       "status": "active",
                     *       "created_at": "2026-11-22T10:00:00.000Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Subscribed event types, or `["*"]`. */
                        events: string[];
                        /** @description Prefix `wh_`. */
                        id: string;
                        /** @enum {string} */
                        status: 'active' | 'disabled';
                        /** @description The registered HTTPS endpoint. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    recoverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-23T08:00:00Z",
                 *       "until": "2026-11-23T09:00:00Z"
                 *     }
                 */
                'application/json': {
                    /**
                     * Format: date-time
                     * @description Start of the window (inclusive); within the delivery history (WEBHOOK_HISTORY_DAYS).
                     */
                    since: string;
                    /**
                     * Format: date-time
                     * @description End of the window (exclusive); now when not given, and a later time counts as now.
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rcv_5TgH7jK9lM1nB3vC5xZ7qW",
                     *       "webhook_id": "wh_3fQk9ZrT1bX8cV2nM5pL7a",
                     *       "since": "2026-11-23T08:00:00.000Z",
                     *       "until": "2026-11-23T09:00:00.000Z",
                     *       "status": "done",
                     *       "events_queued": 42,
                     *       "created_at": "2026-11-23T09:30:12.345Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Events queued for delivery again so far. */
                        events_queued: number;
                        /** @description Prefix `rcv_`. */
                        id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        since: string;
                        /** @enum {string} */
                        status: 'running' | 'done';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        until: string;
                        webhook_id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    getWebhookRecovery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
                /** @description The recovery, prefix `rcv_`. */
                recovery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rcv_5TgH7jK9lM1nB3vC5xZ7qW",
                     *       "webhook_id": "wh_3fQk9ZrT1bX8cV2nM5pL7a",
                     *       "since": "2026-11-23T08:00:00.000Z",
                     *       "until": "2026-11-23T09:00:00.000Z",
                     *       "status": "done",
                     *       "events_queued": 42,
                     *       "created_at": "2026-11-23T09:30:12.345Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Events queued for delivery again so far. */
                        events_queued: number;
                        /** @description Prefix `rcv_`. */
                        id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        since: string;
                        /** @enum {string} */
                        status: 'running' | 'done';
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        until: string;
                        webhook_id: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_4Xq9T0cZbN2mK7pR1sV8wY",
                     *       "url": "https://example.com/hooks/tributary",
                     *       "events": [
                     *         "stream.started",
                     *         "video.published"
                     *       ],
                     *       "status": "active",
                     *       "created_at": "2026-11-20T09:15:00.000Z",
                     *       "secret": "whsec_Zk3P9qLr0VbT7mYc2XwN5sJd8HfA4eGu",
                     *       "previous_secret_expires_at": "2026-11-24T17:40:12.345Z"
                     *     }
                     */
                    'application/json': {
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp in UTC with milliseconds.
                         */
                        created_at: string;
                        /** @description Subscribed event types, or `["*"]`. */
                        events: string[];
                        /** @description Prefix `wh_`. */
                        id: string;
                        /**
                         * Format: date-time
                         * @description Until then (24 hours) deliveries are signed with the previous secret too.
                         */
                        previous_secret_expires_at: string;
                        /** @description The new signing secret. Shown only in this response. */
                        secret: string;
                        /** @enum {string} */
                        status: 'active' | 'disabled';
                        /** @description The registered HTTPS endpoint. */
                        url: string;
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook, prefix `wh_`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "event_id": "evt_8LmN2pQ4rS6tU8vW0xY2zA",
                     *       "type": "ping"
                     *     }
                     */
                    'application/json': {
                        /** @description The ping event, to look up in the delivery log. */
                        event_id: string;
                        /** @enum {string} */
                        type: 'ping';
                    };
                };
            };
            /** @description Every failed response has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
            /** @description Every failed response has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    'application/json': {
                        error: {
                            /** @description Machine-readable error code. */
                            code: string;
                            /** @description Human-readable explanation; not stable across versions. */
                            message: string;
                            /** @description The offending field or query parameter. */
                            param?: string;
                            /** @description With 503 (a dependency such as the media store down): try again after this long; also the Retry-After header. */
                            retry_after_seconds?: number;
                        };
                    };
                };
            };
        };
    };
}
