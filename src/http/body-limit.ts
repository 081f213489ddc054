// The largest request body the application reads (JSON for the API, forms for the pages): one
// value for both parsers, here below the app and the web plugin so that each imports it.
export const BODY_LIMIT_BYTES = 64 * 1024;
