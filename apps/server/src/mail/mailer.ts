import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';

export interface MailLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries, logged when no SMTP server is configured. */
  link?: string;
}

/**
 * Mail goes to the outbox table first, so nothing is lost when the SMTP server is away; then it is
 * sent through `SMTP_URL` when set, or its link is logged for the operator (embedded default).
 */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Kysely<Database>,
    smtpUrl: string | null,
    private readonly from: string,
    private readonly logger: MailLogger,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  async send(mail: Mail): Promise<void> {
    const id = newId();
    await this.db
      .insertInto('outbox')
      .values({
        id,
        to_address: mail.to,
        subject: mail.subject,
        text: mail.text,
        created_at: Date.now(),
        sent_at: null,
        error: null,
      })
      .execute();
    if (!this.transport) {
      this.logger.info(
        { to: mail.to, subject: mail.subject, link: mail.link },
        'Mail stored in the outbox (no SMTP_URL)',
      );
      return;
    }
    try {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
      await this.db.updateTable('outbox').set({ sent_at: Date.now() }).where('id', '=', id).execute();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.db.updateTable('outbox').set({ error: message }).where('id', '=', id).execute();
      this.logger.warn({ to: mail.to, error: message }, 'Mail could not be sent; kept in the outbox');
    }
  }

  close(): void {
    this.transport?.close();
  }
}
