// GET /search?q=&type=&page=: the search results page (src/search). Server-rendered for every
// visitor, signed in or not; a plain GET form in every page's header leads here.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { MAX_QUERY_LENGTH } from '../../search/search-terms.ts';
import { parseKind, parsePage, SearchService } from '../../search/search.service.ts';
import { renderPage, sendPage } from '../layout.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { searchBody, searchPrompt } from './search.page.ts';

// Longer than a query may be, so a too long one gets the search page's own message (400)
// rather than the generic refusal; pages tolerate parameters they do not know.
const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 4096 })),
  type: Type.Optional(Type.String({ maxLength: 64 })),
  page: Type.Optional(Type.String({ maxLength: 64 })),
});

const STYLES = ['/assets/viewer.css', '/assets/search.css'];

export async function searchRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { services } = options;
  const search = new SearchService(services.database.db, services.clock, services.urls, {
    avatars: (ids) => services.profiles.avatars(ids),
  });

  app.get<{ Querystring: { q?: string; type?: string; page?: string } }>(
    '/search',
    { config: { access: 'page' }, schema: { hide: true, querystring: SearchQuery } },
    async (request, reply) => {
      const kind = parseKind(request.query.type);
      const page = parsePage(request.query.page);
      const text = (request.query.q ?? '').trim();
      const show = (body: Parameters<typeof renderPage>[0]['body'], title: string, status = 200) =>
        sendPage(
          reply,
          renderPage({
            title,
            request,
            body,
            section: 'search',
            styles: STYLES,
            searchText: text.slice(0, MAX_QUERY_LENGTH),
          }),
          status,
        );
      if (text === '') return show(searchPrompt(null), 'Search');
      if (text.length > MAX_QUERY_LENGTH) {
        return show(
          searchPrompt(
            `That search is ${text.length} characters long; a search may be up to ${MAX_QUERY_LENGTH}. Try a few words.`,
          ),
          'Search',
          400,
        );
      }
      const results = await search.search({ text, kind, page });
      if (results === undefined) {
        return show(
          searchPrompt(
            `There is nothing to search for in “${text}”: type at least one word of letters or digits.`,
          ),
          'Search',
        );
      }
      return show(searchBody(text, results, services.clock.now()), `Search: ${text}`);
    },
  );
}
