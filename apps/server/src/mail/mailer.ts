import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { JobQueue } from '../jobs/job-queue';
import type { FileStore } from '../documents/file-store';
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
  /** Stored files sent along (documents/file-store.ts), read when the mail is sent. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  fileId: string;
  name: string;
  contentType: string;
}

/** The job that sends one outbox row. */
export const SEND_MAIL_JOB = 'mail.send';

/**
 * Mail goes to the outbox table first, so nothing is lost when the SMTP server is away. With
 * `SMTP_URL` set, a `mail.send` job written in the same transaction sends it: any instance may run
 * it, and a failure is retried with back-off (jobs/job-queue.ts). Without SMTP the link is logged
 * for the operator (embedded default).
 */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Kysely<Database>,
    smtpUrl: string | null,
    private readonly from: string,
    private readonly logger: MailLogger,
    private readonly jobs: JobQueue,
    private readonly files?: FileStore,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
    jobs.register(SEND_MAIL_JOB, (payload) => this.deliver((payload as { outboxId: string }).outboxId), {
      maxAttempts: 10,
    });
  }

  /** Stores the mail and queues its sending; resolves once both are committed, not once it is sent. */
  async send(mail: Mail): Promise<void> {
    const id = newId();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('outbox')
        .values({
          id,
          to_address: mail.to,
          subject: mail.subject,
          text: mail.text,
          created_at: Date.now(),
          sent_at: null,
          error: null,
          attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
        })
        .execute();
      if (this.transport) await this.jobs.enqueue(SEND_MAIL_JOB, { outboxId: id }, {}, trx);
    });
    if (!this.transport) {
      this.logger.info(
        { to: mail.to, subject: mail.subject, link: mail.link },
        'Mail stored in the outbox (no SMTP_URL)',
      );
      return;
    }
    this.jobs.nudge();
  }

  /** The stored files of an outbox row; a file removed since (its report deleted) is left out. */
  private async attachmentsOf(json: string | null) {
    const wanted = json ? (JSON.parse(json) as MailAttachment[]) : [];
    const attachments: { filename: string; content: Buffer; contentType: string }[] = [];
    for (const attachment of wanted) {
      if (!this.files || !(await this.files.find(attachment.fileId))) continue;
      const content = await this.files.readAll(attachment.fileId);
      attachments.push({ filename: attachment.name, content, contentType: attachment.contentType });
    }
    return attachments;
  }

  close(): void {
    this.transport?.close();
  }

  /** Sends one outbox row; throws (and the job is retried) when the SMTP server refuses or is away. */
  private async deliver(outboxId: string): Promise<void> {
    const row = await this.db.selectFrom('outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
    if (!row || row.sent_at !== null || !this.transport) return;
    try {
      await this.transport.sendMail({
        from: this.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text,
        attachments: await this.attachmentsOf(row.attachments),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.db.updateTable('outbox').set({ error: message }).where('id', '=', outboxId).execute();
      throw error;
    }
    await this.db.updateTable('outbox').set({ sent_at: Date.now(), error: null }).where('id', '=', outboxId).execute();
  }
}
