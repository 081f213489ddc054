/** Each operation's method and path template, as the service routes it. */
export declare const operationRoutes: {
    readonly banChatUser: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/chat/bans";
    };
    readonly cancelUpload: {
        readonly method: "DELETE";
        readonly path: "/v1/uploads/{id}";
    };
    readonly createSimulcastDefault: {
        readonly method: "POST";
        readonly path: "/v1/ingest/simulcast-targets";
    };
    readonly createStream: {
        readonly method: "POST";
        readonly path: "/v1/streams";
    };
    readonly createStreamSimulcastTarget: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/simulcast-targets";
    };
    readonly createUpload: {
        readonly method: "POST";
        readonly path: "/v1/uploads";
    };
    readonly createWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks";
    };
    readonly deleteSimulcastDefault: {
        readonly method: "DELETE";
        readonly path: "/v1/ingest/simulcast-targets/{target_id}";
    };
    readonly deleteStream: {
        readonly method: "DELETE";
        readonly path: "/v1/streams/{id}";
    };
    readonly deleteStreamChatMessage: {
        readonly method: "DELETE";
        readonly path: "/v1/streams/{id}/chat/messages/{message_id}";
    };
    readonly deleteStreamSimulcastTarget: {
        readonly method: "DELETE";
        readonly path: "/v1/streams/{id}/simulcast-targets/{target_id}";
    };
    readonly deleteVideo: {
        readonly method: "DELETE";
        readonly path: "/v1/videos/{id}";
    };
    readonly deleteWebhook: {
        readonly method: "DELETE";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly enableWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/enable";
    };
    readonly endStream: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/end";
    };
    readonly endStreamWebRtc: {
        readonly method: "DELETE";
        readonly path: "/v1/streams/{id}/whep/{session_id}";
    };
    readonly getChatSettings: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}/chat/settings";
    };
    readonly getIngestSettings: {
        readonly method: "GET";
        readonly path: "/v1/ingest";
    };
    readonly getSimulcastDefault: {
        readonly method: "GET";
        readonly path: "/v1/ingest/simulcast-targets/{target_id}";
    };
    readonly getStream: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}";
    };
    readonly getStreamSimulcastTarget: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}/simulcast-targets/{target_id}";
    };
    readonly getUpload: {
        readonly method: "GET";
        readonly path: "/v1/uploads/{id}";
    };
    readonly getVideo: {
        readonly method: "GET";
        readonly path: "/v1/videos/{id}";
    };
    readonly getWebhook: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly getWebhookDelivery: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}/deliveries/{event_id}";
    };
    readonly getWebhookRecovery: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}/recoveries/{recovery_id}";
    };
    readonly liftChatRestriction: {
        readonly method: "DELETE";
        readonly path: "/v1/streams/{id}/chat/bans/{user_id}";
    };
    readonly listSimulcastDefaults: {
        readonly method: "GET";
        readonly path: "/v1/ingest/simulcast-targets";
    };
    readonly listStreamChatMessages: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}/chat/messages";
    };
    readonly listStreamSimulcastTargets: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}/simulcast-targets";
    };
    readonly listStreams: {
        readonly method: "GET";
        readonly path: "/v1/streams";
    };
    readonly listUploads: {
        readonly method: "GET";
        readonly path: "/v1/uploads";
    };
    readonly listVideoChatMessages: {
        readonly method: "GET";
        readonly path: "/v1/videos/{id}/chat/messages";
    };
    readonly listVideos: {
        readonly method: "GET";
        readonly path: "/v1/videos";
    };
    readonly listWebhookDeliveries: {
        readonly method: "GET";
        readonly path: "/v1/webhooks/{id}/deliveries";
    };
    readonly listWebhooks: {
        readonly method: "GET";
        readonly path: "/v1/webhooks";
    };
    readonly playStreamWebRtc: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/whep";
    };
    readonly postStreamChatMessage: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/chat/messages";
    };
    readonly recoverWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/recover";
    };
    readonly resendWebhookDelivery: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/deliveries/{event_id}/resend";
    };
    readonly resetChannelKey: {
        readonly method: "POST";
        readonly path: "/v1/ingest/reset-key";
    };
    readonly resetStreamKey: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/reset-stream-key";
    };
    readonly rotateWebhookSecret: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/rotate-secret";
    };
    readonly testWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks/{id}/test";
    };
    readonly timeOutChatUser: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/chat/timeouts";
    };
    readonly updateChatSettings: {
        readonly method: "PATCH";
        readonly path: "/v1/streams/{id}/chat/settings";
    };
    readonly updateSimulcastDefault: {
        readonly method: "PATCH";
        readonly path: "/v1/ingest/simulcast-targets/{target_id}";
    };
    readonly updateStream: {
        readonly method: "PATCH";
        readonly path: "/v1/streams/{id}";
    };
    readonly updateStreamSimulcastTarget: {
        readonly method: "PATCH";
        readonly path: "/v1/streams/{id}/simulcast-targets/{target_id}";
    };
    readonly updateVideo: {
        readonly method: "PATCH";
        readonly path: "/v1/videos/{id}";
    };
    readonly updateWebhook: {
        readonly method: "PATCH";
        readonly path: "/v1/webhooks/{id}";
    };
};
