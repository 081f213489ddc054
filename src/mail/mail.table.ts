/** A mail as it will be sent (migration 2026-11-26-050); a `mail.send` job sends it. */
export interface MailMessageTable {
  id: string;
  /** Which template made it (`verify-email`, `go-live`, ...), for the log and the tests. */
  template: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** Extra headers, JSON (`List-Unsubscribe`, `List-Unsubscribe-Post`). */
  headers: string;
  created_at: number;
  /** When the SMTP server accepted it. */
  sent_at: number | null;
}

/** When a channel last mailed its subscribers that it went live. */
export interface GoLiveNoticeTable {
  creator_id: string;
  /** The stream that mailed them (its fan-out, retried, carries on rather than stopping). */
  stream_id: string;
  notified_at: number;
}
