import { SMTPServer } from 'smtp-server';
import { freePort } from './ports';

/** A mail as a test's SMTP server received it. */
export interface CaughtMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback keeping what it is sent (tests only). */
export async function startMailCatcher() {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Reports attach their files: allow a few MiB.
    size: 20 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Mails to the address whose subject matches. */
    to: (address: string, subject: RegExp) =>
      mails.filter((mail) => mail.to.includes(address) && subject.test(/^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '')),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
