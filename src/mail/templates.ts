// Every mail the platform sends, as plain text and HTML made from the same parts: the
// platform's name, a greeting, paragraphs, at most one button (a link, also written out in
// full), and a footer naming PUBLIC_URL. No images, no tracking pixels, no remote resources,
// no rewritten links: what the reader clicks is the link itself.

export const PLATFORM_NAME = 'Tributary';

export interface MailParts {
  subject: string;
  /** The first line of the body (`Hello Ada,`). */
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string } | undefined;
  /** After the action: why they got this and how to stop it. */
  after?: string[] | undefined;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function renderMail(parts: MailParts, publicUrl: string): RenderedMail {
  const footer = `${PLATFORM_NAME} · ${publicUrl}`;
  const text = [
    parts.greeting,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ''] : []),
    ...(parts.after ?? []).flatMap((p) => [p, '']),
    '-- ',
    footer,
    '',
  ].join('\n');
  const paragraph = (p: string) => `<p style="margin:0 0 16px">${escape(p)}</p>`;
  const button = parts.action
    ? `<p style="margin:24px 0"><a href="${escape(parts.action.url)}" style="background:#1f6feb;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escape(parts.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#57606a">Or open this link: <a href="${escape(parts.action.url)}" style="color:#0969da;word-break:break-all">${escape(parts.action.url)}</a></p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(parts.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f8fa;font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">',
    `<p style="margin:0 0 20px;font-weight:700;font-size:18px">${escape(PLATFORM_NAME)}</p>`,
    paragraph(parts.greeting),
    ...parts.paragraphs.map(paragraph),
    button,
    ...(parts.after ?? []).map(
      (p) => `<p style="margin:0 0 12px;font-size:13px;color:#57606a">${escape(p)}</p>`,
    ),
    `<p style="margin:24px 0 0;font-size:12px;color:#57606a"><a href="${escape(publicUrl)}" style="color:#57606a">${escape(footer)}</a></p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject: parts.subject, text, html };
}

function escape(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The mails features send, by name: each makes its parts from its own data. */
export const templates = {
  'verify-email': (d: { name: string; url: string }): MailParts => ({
    subject: `Confirm your email address for ${PLATFORM_NAME}`,
    greeting: `Hello ${d.name},`,
    paragraphs: [
      `Confirm that this address is yours to finish setting up your ${PLATFORM_NAME} account. Until you do, you can watch and subscribe, but not go live, publish videos or create API keys.`,
    ],
    action: { label: 'Confirm my address', url: d.url },
    after: [
      'The link works once, for 48 hours.',
      'If you did not sign up or change your address, ignore this mail: nothing changes.',
    ],
  }),
  'password-reset': (d: { name: string; url: string }): MailParts => ({
    subject: `Reset your ${PLATFORM_NAME} password`,
    greeting: `Hello ${d.name},`,
    paragraphs: [
      'Someone (we hope you) asked to reset the password of your account. Choose a new one with the link below; every other session of the account is then signed out.',
    ],
    action: { label: 'Choose a new password', url: d.url },
    after: [
      'The link works once, within the hour, and stops working if another is asked for or the password is changed.',
      'If you did not ask, ignore this mail: your password stays as it is.',
    ],
  }),
  'go-live': (d: {
    name: string;
    channel: string;
    title: string;
    url: string;
    unsubscribeUrl: string;
  }): MailParts => ({
    subject: `${d.channel} is live: ${d.title}`,
    greeting: `Hello ${d.name},`,
    paragraphs: [`${d.channel}, a channel you subscribe to, just went live: “${d.title}”.`],
    action: { label: 'Watch now', url: d.url },
    after: [
      `You get this because you subscribed to ${d.channel} with go-live mails on. Stop these mails for this channel in one click: ${d.unsubscribeUrl}`,
    ],
  }),
  /** For other features (moderation): a notice about the account, with an optional link. */
  'account-notice': (d: {
    name: string;
    subject: string;
    paragraphs: string[];
    action?: { label: string; url: string };
  }): MailParts => ({
    subject: d.subject,
    greeting: `Hello ${d.name},`,
    paragraphs: d.paragraphs,
    action: d.action,
  }),
} as const;

export type TemplateName = keyof typeof templates;
export type TemplateData<T extends TemplateName> = Parameters<(typeof templates)[T]>[0];
