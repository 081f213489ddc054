/** Each operation's method and path template, as the service routes it. */
export declare const operationRoutes: {
    readonly createStream: {
        readonly method: "POST";
        readonly path: "/v1/streams";
    };
    readonly createWebhook: {
        readonly method: "POST";
        readonly path: "/v1/webhooks";
    };
    readonly deleteWebhook: {
        readonly method: "DELETE";
        readonly path: "/v1/webhooks/{id}";
    };
    readonly getStream: {
        readonly method: "GET";
        readonly path: "/v1/streams/{id}";
    };
    readonly getVideo: {
        readonly method: "GET";
        readonly path: "/v1/videos/{id}";
    };
    readonly listStreams: {
        readonly method: "GET";
        readonly path: "/v1/streams";
    };
    readonly listVideos: {
        readonly method: "GET";
        readonly path: "/v1/videos";
    };
    readonly listWebhooks: {
        readonly method: "GET";
        readonly path: "/v1/webhooks";
    };
    readonly resetStreamKey: {
        readonly method: "POST";
        readonly path: "/v1/streams/{id}/reset-stream-key";
    };
};
