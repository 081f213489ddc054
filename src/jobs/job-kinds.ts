/**
 * A stream went live: mail its channel's subscribers (src/mail/go-live.ts runs it). Queued by
 * the stream's own transaction (src/streams/stream.service.ts), which knows nothing of mail.
 */
export const GO_LIVE_MAIL_JOB = 'stream.go-live-mail';
