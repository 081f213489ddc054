// The account page's profile sections: the avatar and banner (each with its upload form, and
// what became of the last upload), the name, bio and links, and the email (confirmed with the
// password). Image forms post multipart bodies (profile.routes.ts).
import type { FastifyRequest } from 'fastify';
import {
  BIO_MAX_LENGTH,
  LINKS_MAX,
  NAME_MAX_LENGTH,
  type Profile,
  type ProfileImageView,
} from '../../profiles/profile.service.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../session/csrf.ts';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

function imageState(image: ProfileImageView, label: string): SafeHtml | null {
  if (image.status === 'processing') {
    return html`<p class="muted" role="status">Your new ${label} is being prepared; reload in a moment.</p>`;
  }
  if (image.status === 'failed' && image.error !== null) {
    return html`<p class="field-error" role="alert">Your last ${label} was refused: ${image.error}</p>`;
  }
  return null;
}

function imageForm(request: FastifyRequest, profile: Profile, kind: 'avatar' | 'banner'): SafeHtml {
  const image = profile[kind];
  const label = kind === 'avatar' ? 'avatar' : 'banner';
  const preview =
    image.urls === null
      ? html`<span class="profile-${kind}-empty" aria-hidden="true"></span>`
      : kind === 'avatar'
        ? html`<img
            class="avatar avatar-large"
            id="avatar-preview"
            src="${image.urls[256]}"
            alt="Your avatar"
            width="96"
            height="96"
          />`
        : html`<img
            class="banner-preview"
            id="banner-preview"
            src="${image.urls[800]}"
            alt="Your banner"
            width="400"
            height="100"
          />`;
  return html`<form
    class="image-form"
    method="post"
    action="/account/${kind}"
    enctype="multipart/form-data"
    id="${kind}-form"
  >
    ${csrfField(request)}
    <div class="image-form-preview">${preview}</div>
    <div>
      <label for="${kind}-file">${kind === 'avatar' ? 'Avatar' : 'Banner'}</label>
      <p class="hint" id="${kind}-hint">
        PNG, JPEG, GIF or WebP, at most 5 MB;
        ${kind === 'avatar' ? 'cropped to a square' : 'cropped to 4:1 (1600×400)'}.
      </p>
      <input
        id="${kind}-file"
        name="image"
        type="file"
        accept="${ACCEPT}"
        required
        aria-describedby="${kind}-hint"
      />
      ${imageState(image, label)}
      <button type="submit" class="button">Upload ${label}</button>
    </div>
  </form>`;
}

export function profileSections(
  request: FastifyRequest,
  profile: Profile,
  email: string | null,
  verify = false,
): SafeHtml {
  return html`<section class="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <p class="muted">
        Shown on <a href="/channels/${profile.userId}">your channel</a> and beside your name on your streams
        and videos.
      </p>
      ${imageForm(request, profile, 'avatar')} ${imageForm(request, profile, 'banner')}
      <form method="post" action="/account/profile" class="stacked-form" id="profile-form">
        ${csrfField(request)}
        <label for="profile-name">Name</label>
        <input
          id="profile-name"
          name="name"
          type="text"
          required
          maxlength="${NAME_MAX_LENGTH}"
          value="${profile.name}"
          autocomplete="name"
        />
        <label for="profile-bio">Bio <span class="hint">at most ${BIO_MAX_LENGTH} characters</span></label>
        <textarea id="profile-bio" name="bio" rows="4" maxlength="${BIO_MAX_LENGTH}">
${profile.bio ?? ''}</textarea>
        <label for="profile-links"
          >Links <span class="hint">up to ${LINKS_MAX}, one a line, starting with https://</span></label
        >
        <textarea id="profile-links" name="links" rows="3">${profile.links.join('\n')}</textarea>
        <button type="submit" class="button primary">Save profile</button>
      </form>
    </section>
    ${
      email === null
        ? null
        : html`<section class="panel" aria-labelledby="email-heading">
            <h2 id="email-heading">Change your email</h2>
            <p class="muted">
              ${
                verify
                  ? 'We mail a link to the new address; it replaces the current one when you open it.'
                  : 'The new address replaces the current one at once.'
              }
            </p>
            <form method="post" action="/account/email" class="stacked-form" id="email-form">
              ${csrfField(request)}
              <label for="new-email">New email</label>
              <input id="new-email" name="email" type="email" autocomplete="email" required maxlength="254" />
              <label for="email-password">Current password</label>
              <input
                id="email-password"
                name="current_password"
                type="password"
                autocomplete="current-password"
                required
                maxlength="256"
              />
              <button type="submit" class="button primary">Change email</button>
            </form>
          </section>`
    }`;
}
