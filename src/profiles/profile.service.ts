// Creators' profiles: the name shown everywhere, a bio and links, and avatar and banner images.
// An image is checked when it arrives (its kind and size, from its header: image-sniff.ts),
// kept as it came under DATA_DIR/profiles/incoming, and turned into fixed sizes of JPEG by a
// media job (profile-image.job.ts) on the durable queue, never inside the request.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/database.ts';
import { enqueueJob } from '../jobs/job.repository.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound } from '../shared/errors.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { ImageRefusal, sniffImage, type SniffedImage } from './image-sniff.ts';
import * as repo from './profile.repository.ts';
import type { ProfileImageKind, ProfileImageRow } from './profile.table.ts';

export const PROFILE_IMAGE_JOB = 'profile.image';
/** The largest image file taken (the request's body may be a little larger: the form around it). */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const NAME_MAX_LENGTH = 100;
export const BIO_MAX_LENGTH = 1000;
export const LINKS_MAX = 5;
const LINK_MAX_LENGTH = 300;
const JOB_ATTEMPTS = 3;

/** The fixed sizes each kind is made in; the first is the largest. */
export const IMAGE_SIZES: Record<ProfileImageKind, { width: number; height: number }[]> = {
  avatar: [
    { width: 256, height: 256 },
    { width: 64, height: 64 },
  ],
  banner: [
    { width: 1600, height: 400 },
    { width: 800, height: 200 },
  ],
};

/** The avatar size shown beside a name (cards, the watch page, the site's header). */
export const AVATAR_SMALL = 64;

export interface ProfileImageView {
  /** The image shown, by width, or null before one is ready. */
  urls: Record<number, string> | null;
  status: 'none' | 'processing' | 'ready' | 'failed';
  error: string | null;
}

export interface Profile {
  userId: string;
  name: string;
  bio: string | null;
  links: string[];
  avatar: ProfileImageView;
  banner: ProfileImageView;
}

export interface ProfileInput {
  name: string;
  bio: string;
  /** One URL a line, as the form sends them. */
  links: string;
}

/** The job's subject: whose image, which kind, which upload. */
export function imageSubject(userId: string, kind: ProfileImageKind, version: number): string {
  return `${userId}:${kind}:${version}`;
}

export function parseImageSubject(
  subject: string,
): { userId: string; kind: ProfileImageKind; version: number } | undefined {
  const match = /^(usr_[0-9A-Za-z]+):(avatar|banner):(\d+)$/.exec(subject);
  if (!match) return undefined;
  return { userId: match[1] ?? '', kind: match[2] as ProfileImageKind, version: Number(match[3]) };
}

export class ProfileService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  readonly root: string;
  /** Wakes the media job runner (src/uploads/upload-worker.ts) when an image is queued. */
  onJobQueued: () => void = () => undefined;

  constructor(db: Db, clock: Clock, urls: PublicUrls, dataDir: string) {
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.root = path.join(dataDir, 'profiles');
  }

  incomingPath(userId: string, kind: ProfileImageKind, version: number): string {
    return path.join(this.root, 'incoming', `${userId}-${kind}-${version}`);
  }

  userDir(userId: string): string {
    return path.join(this.root, userId);
  }

  /** A made file's name: `<kind>-<version>-<width>.jpg`. */
  static fileName(kind: ProfileImageKind, version: number, width: number): string {
    return `${kind}-${version}-${width}.jpg`;
  }

  /** The file a /profiles/<user>/<file> request names, or undefined for a name never made. */
  servedFile(userId: string, file: string): string | undefined {
    if (!/^usr_[0-9A-Za-z]{1,60}$/.test(userId) || !/^(avatar|banner)-\d{1,16}-\d{1,4}\.jpg$/.test(file)) {
      return undefined;
    }
    return path.join(this.userDir(userId), file);
  }

  private view(userId: string, kind: ProfileImageKind, row: ProfileImageRow | undefined): ProfileImageView {
    if (!row) return { urls: null, status: 'none', error: null };
    const version = row.ready_version;
    const urls =
      version === null
        ? null
        : Object.fromEntries(
            IMAGE_SIZES[kind].map(({ width }) => [
              width,
              this.urls.profileImage(userId, ProfileService.fileName(kind, version, width)),
            ]),
          );
    return { urls, status: row.status, error: row.error };
  }

  async find(userId: string): Promise<Profile | undefined> {
    const row = await repo.findProfileRow(this.db, userId);
    if (!row) return undefined;
    const images = await repo.findImages(this.db, [userId]);
    const image = (kind: ProfileImageKind) =>
      this.view(
        userId,
        kind,
        images.find((i) => i.kind === kind),
      );
    return {
      userId,
      name: row.name,
      bio: row.bio,
      links: parseLinks(row.links),
      avatar: image('avatar'),
      banner: image('banner'),
    };
  }

  /**
   * The small avatar of each user who has one, by id (pages that show creators' names): one
   * query however many users are asked about.
   */
  async avatars(userIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await repo.findAvatarVersions(this.db, [...new Set(userIds)]);
    return new Map(rows.map((row) => [row.user_id, this.avatarUrl(row.user_id, row.ready_version)]));
  }

  /** The small (64 px) avatar of an upload version. */
  avatarUrl(userId: string, version: number): string {
    return this.urls.profileImage(userId, ProfileService.fileName('avatar', version, AVATAR_SMALL));
  }

  /** The name shown everywhere, the bio and the links; each checked, the first fault named. */
  async update(userId: string, input: ProfileInput): Promise<void> {
    const name = input.name.trim();
    if (name.length === 0 || Array.from(name).length > NAME_MAX_LENGTH) {
      throw invalidParameter('name', `Enter a name of 1 to ${NAME_MAX_LENGTH} characters.`);
    }
    const bio = input.bio.replace(/\r\n/g, '\n').trim();
    if (Array.from(bio).length > BIO_MAX_LENGTH) {
      throw invalidParameter('bio', `Keep the bio to ${BIO_MAX_LENGTH} characters.`);
    }
    const links = checkLinks(input.links);
    const updated = await repo.updateProfileRow(this.db, userId, {
      name,
      bio: bio === '' ? null : bio,
      links: JSON.stringify(links),
    });
    if (!updated) throw notFound('user', userId);
  }

  /**
   * Takes an uploaded image: refused at once when it is not a PNG, JPEG, GIF or WebP of a
   * sensible size; otherwise kept and queued for the media job, which makes its fixed sizes.
   */
  async acceptImage(userId: string, kind: ProfileImageKind, bytes: Buffer): Promise<SniffedImage> {
    if (bytes.length === 0) throw new AppError('invalid_image', 'Choose an image file to upload.', kind);
    if (bytes.length > PROFILE_IMAGE_MAX_BYTES) {
      throw new AppError('payload_too_large', 'The image is larger than 5 MB: choose a smaller file.', kind);
    }
    let sniffed: SniffedImage;
    try {
      sniffed = sniffImage(bytes);
    } catch (error) {
      if (error instanceof ImageRefusal) throw new AppError('invalid_image', error.message, kind);
      throw error;
    }
    const now = this.clock.now();
    const current = await repo.findImage(this.db, userId, kind);
    const version = Math.max(now, (current?.pending_version ?? 0) + 1, (current?.ready_version ?? 0) + 1);
    const incoming = this.incomingPath(userId, kind, version);
    await fs.mkdir(path.dirname(incoming), { recursive: true });
    await fs.writeFile(incoming, bytes);
    await this.db.transaction().execute(async (trx) => {
      await repo.markImagePending(trx, { userId, kind, version, now });
      await enqueueJob(trx, {
        kind: PROFILE_IMAGE_JOB,
        subjectId: imageSubject(userId, kind, version),
        maxAttempts: JOB_ATTEMPTS,
        now,
      });
    });
    this.onJobQueued();
    return sniffed;
  }

  /** The job's outcome: the new version is shown (older files removed), or why it failed. */
  async settle(
    image: { userId: string; kind: ProfileImageKind; version: number },
    outcome: { ready: true } | { ready: false; error: string },
  ): Promise<boolean> {
    const settled = await repo.settleImage(this.db, { ...image, now: this.clock.now() }, outcome);
    await fs.rm(this.incomingPath(image.userId, image.kind, image.version), { force: true });
    if (settled && outcome.ready) await this.removeOtherVersions(image.userId, image.kind, image.version);
    return settled;
  }

  /** Whether this upload is still the one waiting (a newer upload supersedes it). */
  async isPending(image: { userId: string; kind: ProfileImageKind; version: number }): Promise<boolean> {
    const row = await repo.findImage(this.db, image.userId, image.kind);
    return row !== undefined && row.pending_version === image.version;
  }

  private async removeOtherVersions(userId: string, kind: ProfileImageKind, version: number): Promise<void> {
    const dir = this.userDir(userId);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const keep = new Set(IMAGE_SIZES[kind].map(({ width }) => ProfileService.fileName(kind, version, width)));
    await Promise.all(
      names
        .filter((name) => name.startsWith(`${kind}-`) && !keep.has(name))
        .map((name) => fs.rm(path.join(dir, name), { force: true })),
    );
  }
}

function parseLinks(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** At most LINKS_MAX absolute http(s) URLs, one a line; blank lines are skipped. */
function checkLinks(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length > LINKS_MAX) throw invalidParameter('links', `Add at most ${LINKS_MAX} links.`);
  return lines.map((line) => {
    let url: URL;
    try {
      url = new URL(line);
    } catch {
      throw invalidParameter(
        'links',
        `“${line.slice(0, 80)}” is not a web address (start it with https://).`,
      );
    }
    if (
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username !== '' ||
      url.password !== ''
    ) {
      throw invalidParameter(
        'links',
        `“${line.slice(0, 80)}” is not a web address (start it with https://).`,
      );
    }
    if (line.length > LINK_MAX_LENGTH) {
      throw invalidParameter('links', `Each link may be at most ${LINK_MAX_LENGTH} characters.`);
    }
    return url.toString();
  });
}
