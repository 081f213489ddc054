export interface paths {
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
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook for good; deliveries to it stop at once */
        delete: operations['deleteWebhook'];
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
                        };
                    };
                };
            };
        };
    };
    createStream: {
        parameters: {
            query?: never;
            header?: never;
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
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
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
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
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
                            /** @description Server URL to enter in the streaming software. */
                            rtmp_url: string;
                            /** @description Secret key to publish with. Shown only to the creator, on a write-scoped key. */
                            stream_key: string;
                        };
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
                        };
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                'application/json': {
                    /** @description Event types (stream.started, stream.ended, video.published, subscription.created, subscription.cancelled, ping), or the single item `*` for all current and future ones. */
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
                        };
                    };
                };
            };
        };
    };
}
