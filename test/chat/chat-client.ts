// A chat socket client for tests and the benchmark: a real WebSocket (ws) to /watch/{id}/chat,
// every frame it hears kept in order, and posts answered by their nonce.
import { WebSocket } from 'ws';
import { waitFor } from '../helpers/wait.ts';

export interface ChatFrame {
  type: string;
  [key: string]: any;
}

export interface ConnectOptions {
  cookie?: string;
  after?: number;
  /** The Origin header (none unless given, as a non-browser client). */
  origin?: string;
  /** The client's address as a trusted proxy names it (X-Forwarded-For, with TRUST_PROXY). */
  forwardedFor?: string;
}

export class ChatClient {
  readonly socket: WebSocket;
  readonly frames: ChatFrame[] = [];
  readonly opened: Promise<void>;
  closeCode: number | undefined;
  private nonce = 0;

  constructor(origin: string, streamId: string, options: ConnectOptions = {}) {
    const url = new URL(`/watch/${streamId}/chat`, origin.replace(/^http/, 'ws'));
    if (options.after !== undefined) url.searchParams.set('after', String(options.after));
    const headers: Record<string, string> = {};
    if (options.cookie !== undefined) headers.cookie = options.cookie;
    if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
    this.socket = new WebSocket(url, {
      headers,
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
    this.socket.on('message', (data: Buffer) => {
      this.frames.push(JSON.parse(data.toString('utf8')) as ChatFrame);
    });
    this.socket.on('close', (code) => {
      this.closeCode = code;
    });
    this.socket.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => {
        resolve();
      });
      // The refusal's body says which (a missing stream, a limit, a route), so a failure is readable.
      this.socket.once('unexpected-response', (_request, response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          reject(
            new Error(`upgrade refused: ${response.statusCode} ${Buffer.concat(chunks).toString('utf8')}`),
          );
        });
        response.once('error', () => {
          reject(new Error(`upgrade refused: ${response.statusCode}`));
        });
      });
      this.socket.once('error', reject);
    });
  }

  /** Connects and waits for the hello frame. */
  static async connect(origin: string, streamId: string, options: ConnectOptions = {}): Promise<ChatClient> {
    const client = new ChatClient(origin, streamId, options);
    await client.opened;
    await client.hello();
    return client;
  }

  async hello(): Promise<ChatFrame> {
    return waitFor(() => this.frames.find((frame) => frame.type === 'hello'), { what: 'the hello frame' });
  }

  /** Every message heard (the hello's history, then the live ones), in order. */
  messages(): any[] {
    const hello = this.frames.find((frame) => frame.type === 'hello');
    const history = (hello?.messages as any[] | undefined) ?? [];
    return [
      ...history,
      ...this.frames.filter((frame) => frame.type === 'message').map((frame) => frame.message),
    ];
  }

  texts(): string[] {
    return this.messages().map((message) => message.text as string);
  }

  lastSeq(): number {
    return this.messages().reduce((max, message) => Math.max(max, message.seq as number), 0);
  }

  /** Posts and waits for the server's answer: `posted` or `error`. */
  async post(text: string): Promise<ChatFrame> {
    const nonce = `n${++this.nonce}`;
    this.socket.send(JSON.stringify({ type: 'post', text, nonce }));
    return waitFor(
      () =>
        this.frames.find(
          (frame) => (frame.type === 'posted' || frame.type === 'error') && frame.nonce === nonce,
        ),
      { what: `the answer to post ${nonce}` },
    );
  }

  async waitForTexts(count: number, what = `${count} messages`): Promise<string[]> {
    return waitFor(() => (this.texts().length >= count ? this.texts() : undefined), { what });
  }

  async closed(): Promise<number> {
    return waitFor(() => this.closeCode, { what: 'the socket to close' });
  }

  close(): void {
    this.socket.terminate();
  }
}

/** The Cookie header of a fresh web session for `userId`. */
export async function sessionCookie(
  sessions: { start(userId: string): Promise<{ token: string }> },
  userId: string,
): Promise<string> {
  const { token } = await sessions.start(userId);
  return `tributary_session=${token}`;
}
