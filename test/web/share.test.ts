// Sharing over HTTP (issue 28): a watch page's head makes its link unfurl (Open Graph, Twitter
// player card, oEmbed discovery); /oembed answers JSON for public streams and videos of this
// site only, sized to the consumer's bounds, 404 otherwise and 501 for another format; the
// embeddable player may be framed by any site while every other page still refuses frames.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { seedVideos } from '../helpers/seed.ts';
import { test } from 'node:test';

function metaContent(page: string, attribute: string, name: string): string | undefined {
  const pattern = new RegExp(`<meta ${attribute}="${name}" content="([^"]*)"`);
  return pattern.exec(page)?.[1];
}

for (const dialect of DIALECTS) {
  describe(`sharing on ${dialect}`, () => {
    test('watch pages unfurl, oEmbed answers for public content only, embeds may be framed', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const creator = await server.createAccount('Ada "Quotes" <Lovelace>');
      const stream = await server.createStream(creator, { title: 'Evening & jam', description: 'Tunes.' });
      const hidden = await server.createStream(creator, { title: 'Unlisted', privacy: 'private' });
      const [video] = await seedVideos(server.services.database.db, 1, () => ({
        creator_id: creator.userId,
        title: 'Recorded set',
        duration_seconds: 95,
      }));
      assert.ok(video);

      // The watch page's head.
      const page = await fetch(stream.stream_url);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      const text = await page.text();
      assert.equal(metaContent(text, 'property', 'og:title'), 'Evening &amp; jam');
      assert.equal(metaContent(text, 'property', 'og:url'), stream.stream_url);
      assert.equal(metaContent(text, 'property', 'og:description'), 'Tunes.');
      assert.equal(metaContent(text, 'property', 'og:video'), `${server.origin}/embed/${stream.id}`);
      assert.equal(metaContent(text, 'name', 'twitter:card'), 'player');
      assert.equal(metaContent(text, 'name', 'twitter:player'), `${server.origin}/embed/${stream.id}`);
      const discovery = /<link\s+rel="alternate"\s+type="application\/json\+oembed"\s+href="([^"]+)"/.exec(
        text,
      );
      assert.ok(discovery?.[1], 'an oEmbed discovery link');
      const oembedUrl = discovery[1].replace(/&amp;/g, '&');
      assert.equal(
        oembedUrl,
        `${server.origin}/oembed?url=${encodeURIComponent(stream.stream_url)}&format=json`,
      );
      // The Share panel carries the link and the embed code.
      assert.match(text, new RegExp(`id="share-link" type="text" readonly value="${stream.stream_url}"`));
      assert.match(text, /Keyboard shortcuts/);

      // oEmbed, found by discovery.
      const answer = await fetch(oembedUrl);
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await answer.json()) as any;
      assert.equal(body.version, '1.0');
      assert.equal(body.type, 'video');
      assert.equal(body.title, 'Evening & jam');
      assert.equal(body.author_name, 'Ada "Quotes" <Lovelace>');
      assert.equal(body.author_url, `${server.origin}/channels/${creator.userId}`);
      assert.equal(body.provider_name, 'Tributary');
      assert.equal(body.width, 640);
      assert.equal(body.height, 360);
      assert.match(
        body.html,
        new RegExp(`^<iframe src="${server.origin}/embed/${stream.id}" width="640" height="360"`),
      );
      assert.match(body.html, /title="Evening &amp; jam"/);

      // Within the consumer's bounds, 16:9; a video's URL answers too.
      const sized = await fetch(
        `${server.origin}/oembed?url=${encodeURIComponent(`${server.origin}/watch/${video}`)}&maxwidth=400&maxheight=500`,
      );
      assert.equal(sized.status, 200);
      const small = (await sized.json()) as any;
      assert.deepEqual([small.width, small.height], [400, 225]);
      assert.equal(small.title, 'Recorded set');
      const short = (await (
        await fetch(`${server.origin}/oembed?url=${encodeURIComponent(stream.stream_url)}&maxheight=180`)
      ).json()) as any;
      assert.deepEqual([short.width, short.height], [320, 180]);
      assert.ok(short.width <= 640 && short.height <= 180);

      // Refusals, as the oEmbed spec has them, in the API's envelope.
      const refusals: [string, number, string][] = [
        [`url=${encodeURIComponent(stream.stream_url)}&format=xml`, 501, 'format_not_implemented'],
        [`url=${encodeURIComponent(hidden.stream_url)}`, 404, 'resource_not_found'],
        [
          `url=${encodeURIComponent(`${server.origin}/watch/str_doesnotexist0000000`)}`,
          404,
          'resource_not_found',
        ],
        [
          `url=${encodeURIComponent(`https://elsewhere.example/watch/${stream.id}`)}`,
          404,
          'resource_not_found',
        ],
        [
          `url=${encodeURIComponent(`${server.origin}/channels/${creator.userId}`)}`,
          404,
          'resource_not_found',
        ],
        ['url=not%20a%20url', 404, 'resource_not_found'],
        ['format=json', 400, 'parameter_missing'],
        [`url=${encodeURIComponent(stream.stream_url)}&maxwidth=wide`, 400, 'parameter_invalid'],
        [`url=${encodeURIComponent(stream.stream_url)}&maxheight=0`, 400, 'parameter_invalid'],
        [`url=${'x'.repeat(3000)}`, 400, 'parameter_invalid'],
      ];
      for (const [query, status, code] of refusals) {
        const response = await fetch(`${server.origin}/oembed?${query}`);
        const error = (await response.json()) as any;
        assert.equal(response.status, status, `${query}: ${JSON.stringify(error)}`);
        assert.equal(error.error.code, code, query);
      }

      // The embed: framable by anyone, the player alone, no session, no frame refusal.
      for (const id of [stream.id, video, hidden.id]) {
        const embed = await fetch(`${server.origin}/embed/${id}`);
        assert.equal(embed.status, 200);
        const csp = embed.headers.get('content-security-policy') ?? '';
        assert.match(csp, /frame-ancestors \*/);
        assert.match(csp, /script-src 'self'/);
        assert.doesNotMatch(csp, /frame-ancestors 'none'/);
        assert.equal(embed.headers.get('x-frame-options'), null);
        assert.equal(embed.headers.get('set-cookie'), null);
        const html = await embed.text();
        assert.match(html, /<video id="player"/);
        assert.match(html, /id="quality"/);
        assert.doesNotMatch(html, /site-header|<form/);
        assert.doesNotMatch(html, /<script>(?!<\/script>)/, 'no inline script');
      }
      const missing = await fetch(`${server.origin}/embed/vid_missing000000000000`);
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
      assert.match(await missing.text(), /not available/);

      // Every other page keeps refusing frames.
      for (const path of ['/', `/channels/${creator.userId}`, '/sign-in', '/nope', `/watch/${video}`]) {
        const other = await fetch(`${server.origin}${path}`, { headers: { accept: 'text/html' } });
        await other.body?.cancel();
        assert.match(other.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
        assert.equal(other.headers.get('x-frame-options'), 'DENY', path);
      }
    });
  });
}
