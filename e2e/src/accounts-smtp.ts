import { SMTPServer } from 'smtp-server';
import { freePort } from '@fieldlink/server/testing/ports';

/** A mail as the catcher received it over SMTP. */
export interface CaughtMail {
  to: string[];
  raw: string;
  /** The text part, quoted-printable undone. */
  text: string;
}

/** Undoes quoted-printable (soft line breaks and `=XX`), as nodemailer encodes long text lines. */
function decodeQuotedPrintable(body: string): string {
  return Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

function textOf(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  return /content-transfer-encoding:\s*quoted-printable/i.test(head) ? decodeQuotedPrintable(body) : body;
}

/** A real SMTP server on loopback that keeps every mail it is sent, for the test to read. */
export async function startMailCatcher(): Promise<{
  url: string;
  mails: CaughtMail[];
  waitFor(to: string, count?: number, timeoutMs?: number): Promise<CaughtMail>;
  stop(): Promise<void>;
}> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), raw, text: textOf(raw) });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.filter((mail) => mail.to.includes(to.toLowerCase()));
        if (found.length >= count) return found[count - 1]!;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-up link of an invitation mail. */
export function signupLinkOf(mail: CaughtMail): URL {
  const match = /https?:\/\/\S+\/signup\?\S+/.exec(mail.text);
  if (!match) throw new Error(`No sign-up link in:\n${mail.text}`);
  return new URL(match[0]);
}
