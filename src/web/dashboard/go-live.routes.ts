// "Go live from the browser": a page on one of the creator's streams that publishes the
// camera and microphone over WHIP (public/go-live.js). The browser's offer comes here, signed
// in by the session cookie and the CSRF token, and the server presents the stream's key to the
// WHIP ingest itself (src/whip/): the key never reaches the page, its script, the URL or the
// browser's history, so a page left open or a script injected elsewhere on the site cannot
// read it. The session's Location is this page's own; its /stop (a POST) ends the publish.
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.ts';
import { BODY_LIMIT_BYTES } from '../../http/body-limit.ts';
import { csrfField, html, PAGE, renderPage, sendPage } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { IdParams } from './owned.ts';

const SessionParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  session: Type.String({ maxLength: 64 }),
});
const STYLES = ['/assets/dashboard.css'];

export async function dashboardGoLiveRoutes(app: DashboardApp, deps: DashboardDeps): Promise<void> {
  const { whip } = deps.services;
  const { streamWithKey } = deps.owned;

  app.get(
    '/dashboard/streams/:id/go-live',
    { config: PAGE, schema: { hide: true, params: IdParams }, preHandler: streamWithKey.preHandler },
    async (request, reply) => {
      const { stream, streamKey } = streamWithKey.of(request);
      const ended = stream.status === 'ended';
      const body = html`<p class="crumbs">
          <a href="/dashboard/streams">Streams</a> ›
          <a href="/dashboard/streams/${stream.id}">${stream.title}</a>
        </p>
        <h1>Go live from the browser</h1>
        <p class="meta">
          Publishes this browser's camera and microphone to <strong>${stream.title}</strong>, with no
          streaming software. The stream gets its usual HLS, renditions and recording.
        </p>
        ${
          ended || streamKey === undefined
            ? html`<p class="notice" role="status">
                This stream has ended. Create a new stream to go live again.
              </p>`
            : ''
        }
        <section
          id="go-live"
          class="panel go-live"
          data-offer-url="/dashboard/streams/${stream.id}/whip"
          data-state="idle"
          aria-labelledby="go-live-heading"
        >
          <h2 id="go-live-heading">Camera</h2>
          ${csrfField(request)}
          <div class="player">
            <video id="go-live-preview" muted playsinline autoplay aria-label="Camera preview"></video>
          </div>
          <div class="button-row">
            <button type="button" class="primary" id="go-live-start" disabled>Go live</button>
            <button type="button" class="danger" id="go-live-stop" disabled>Stop</button>
          </div>
          <p id="go-live-status" role="status" aria-live="polite">
            ${ended ? 'Not available: the stream has ended.' : 'Not live. Press Go live and allow the camera and microphone.'}
          </p>
          <noscript><p>This page needs JavaScript (and a browser with WebRTC) to publish.</p></noscript>
        </section>
        <p class="meta">
          Keep this tab open while live. Closing it drops the stream, which then waits for you to come back as
          it does for streaming software that disconnects.
        </p>`;
      return sendPage(
        reply,
        renderPage({
          title: `Go live: ${stream.title}`,
          request,
          body,
          section: 'streams',
          styles: STYLES,
          scripts: ended ? [] : ['/assets/go-live.js'],
        }),
      );
    },
  );

  await app.register(async (scope: DashboardApp) => {
    // The offer is SDP text; nothing else is read here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/sdp',
      { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
      (_request, body, done) => {
        done(null, body);
      },
    );
    scope.addContentTypeParser('*', (_request, _payload, done) => {
      done(null, undefined);
    });
    scope.post(
      '/dashboard/streams/:id/whip',
      { config: PAGE, schema: { hide: true, params: IdParams }, preHandler: streamWithKey.preHandler },
      async (request, reply) => {
        const { stream, streamKey } = streamWithKey.of(request);
        if (typeof request.body !== 'string') {
          throw new AppError(
            'unsupported_media_type',
            'Send the SDP offer with "Content-Type: application/sdp".',
          );
        }
        if (streamKey === undefined) {
          throw new AppError(
            'stream_ended',
            'This stream has ended. Create a new stream and go live with it.',
          );
        }
        const answer = await whip.offer({ sdp: request.body, token: streamKey, remoteAddress: request.ip });
        return reply
          .code(201)
          .header('Location', `/dashboard/streams/${stream.id}/whip/${answer.id}`)
          .header('Cache-Control', 'no-store')
          .type('application/sdp')
          .send(answer.sdp);
      },
    );
    // Stop is a POST (the site's forms and CSRF checks are POSTs); the WHIP API's is a DELETE.
    scope.post(
      '/dashboard/streams/:id/whip/:session/stop',
      { config: PAGE, schema: { hide: true, params: SessionParams }, preHandler: streamWithKey.preHandler },
      async (request, reply) => {
        const { streamKey } = streamWithKey.of(request);
        const { session } = request.params as { session: string };
        await whip.end(session, streamKey);
        return reply.code(200).header('Cache-Control', 'no-store').send({ ended: true });
      },
    );
  });
}
