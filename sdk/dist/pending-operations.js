export const pendingRoutes = {
    getWebhook: { method: 'GET', path: '/v1/webhooks/{id}' },
    updateWebhook: { method: 'PATCH', path: '/v1/webhooks/{id}' },
    enableWebhook: { method: 'POST', path: '/v1/webhooks/{id}/enable' },
    rotateWebhookSecret: { method: 'POST', path: '/v1/webhooks/{id}/rotate-secret' },
    testWebhook: { method: 'POST', path: '/v1/webhooks/{id}/test' },
    listWebhookDeliveries: { method: 'GET', path: '/v1/webhooks/{id}/deliveries' },
    getWebhookDelivery: { method: 'GET', path: '/v1/webhooks/{id}/deliveries/{event_id}' },
    resendWebhookDelivery: { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{event_id}/resend' },
    recoverWebhook: { method: 'POST', path: '/v1/webhooks/{id}/recover' },
    getWebhookRecovery: { method: 'GET', path: '/v1/webhooks/{id}/recoveries/{recovery_id}' },
};
