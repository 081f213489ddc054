// Where the public pages and media of each resource live, under PUBLIC_URL. One place, so
// the API, the events and the media server agree.
export class PublicUrls {
  private readonly base: string;
  /** PUBLIC_URL without a trailing slash. */
  readonly publicUrl: string;
  /** Where streaming software publishes: the public host on the RTMP port. */
  readonly rtmpIngest: string;
  constructor(publicUrl: string, rtmpPort: number) {
    this.base = publicUrl.replace(/\/+$/, '');
    this.publicUrl = this.base;
    this.rtmpIngest = `rtmp://${new URL(this.base).hostname}:${rtmpPort}/live`;
  }

  /** A page of the site: `path` starts with `/`. */
  page(path: string): string {
    return `${this.base}${path}`;
  }

  streamPage(id: string): string {
    return `${this.base}/watch/${id}`;
  }

  videoPage(id: string): string {
    return `${this.base}/watch/${id}`;
  }

  /** The player alone, for other sites' pages (an iframe; src/web/share/). */
  embedPage(id: string): string {
    return `${this.base}/embed/${id}`;
  }

  /** The oEmbed answer for one of this site's watch pages. */
  oembed(pageUrl: string): string {
    return `${this.base}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
  }

  /** A profile image's file (src/profiles/): its name carries its version, so it is cached for good. */
  profileImage(userId: string, file: string): string {
    return `${this.base}/profiles/${userId}/${file}`;
  }

  /** The version parameter changes with each new thumbnail so caches fetch it again. */
  streamThumbnail(id: string, takenAt: number): string {
    return `${this.base}/media/streams/${id}/thumbnail.jpg?v=${takenAt}`;
  }

  streamPlayback(id: string): string {
    return `${this.base}/media/streams/${id}/index.m3u8`;
  }

  videoThumbnail(id: string): string {
    return `${this.base}/media/videos/${id}/thumbnail.jpg`;
  }

  videoPlayback(id: string): string {
    return `${this.base}/media/videos/${id}/index.m3u8`;
  }

  /**
   * The path part of PUBLIC_URL ('' at the root). Watch pages link to their assets and media
   * by path, so a page works under whichever host name reached it.
   */
  get basePath(): string {
    return new URL(this.base).pathname.replace(/\/+$/, '');
  }

  /** PUBLIC_URL's origin (scheme, host and port). */
  get origin(): string {
    return new URL(this.base).origin;
  }

  /** `url` (one of the above) as a same-origin path. */
  pathOf(url: string): string {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  }
}
