// With https the cookies take the __Host- prefix: the browser then refuses them unless they
// are Secure, for Path=/ and without a Domain, so no sibling subdomain can plant one.
export interface CookieNames {
  session: string;
  visitor: string;
}

export function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}tributary_session`, visitor: `${prefix}tributary_visitor` };
}
