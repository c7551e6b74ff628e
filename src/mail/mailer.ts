// Outgoing mail (password-reset links) over SMTP_URL with nodemailer. Without SMTP_URL, outside
// production the message goes to the log with a warning, so local development needs no server;
// in production a missing SMTP_URL makes sending fail loudly in the log (the person's answer
// stays the same, see sessions/password-reset.ts).
import type { Logger } from 'pino';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type Mailer = (mail: Mail) => Promise<void>;

export function createMailer(
  config: { SMTP_URL?: string | undefined; MAIL_FROM: string; NODE_ENV: string },
  logger: Logger,
): Mailer {
  if (!config.SMTP_URL) {
    return async (mail) => {
      if (config.NODE_ENV === 'production') {
        logger.error({ to: mail.to, subject: mail.subject }, 'mail not sent: SMTP_URL is not configured');
        return;
      }
      logger.warn(
        { to: mail.to, subject: mail.subject, text: mail.text },
        'SMTP_URL is not set: the mail is logged instead of sent',
      );
    };
  }
  // nodemailer loads on the first mail: an instance keeps none of it until someone resets a password.
  let transport: Promise<Transporter> | null = null;
  return async (mail) => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(config.SMTP_URL));
    await (await transport).sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  };
}
