// The short, stable name of why an attempt got no answer, for API clients. Attempt rows keep
// the sender's fuller description (for operators and logs); clients get one of a few words
// they can switch on.
export type AttemptErrorKind =
  'timeout' | 'connection_refused' | 'connection_reset' | 'dns' | 'tls' | 'unsafe_target' | 'network';

const TLS_CODES =
  /CERT|SSL|TLS|SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|ALTNAME/i;

export function attemptErrorKind(stored: string): AttemptErrorKind {
  if (stored.startsWith('timeout')) return 'timeout';
  // The sender refuses private and reserved addresses, literal or resolved, before connecting.
  if (
    stored.startsWith('refused:') ||
    /ERR_WEBHOOK_PRIVATE_TARGET|non-public address|not a public address/i.test(stored)
  ) {
    return 'unsafe_target';
  }
  if (/ECONNREFUSED/.test(stored)) return 'connection_refused';
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|ENODATA/.test(stored)) return 'dns';
  if (/UND_ERR_CONNECT_TIMEOUT|ETIMEDOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT/.test(stored)) {
    return 'timeout';
  }
  if (TLS_CODES.test(stored)) return 'tls';
  if (/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed|socket hang up/i.test(stored)) {
    return 'connection_reset';
  }
  return 'network';
}
