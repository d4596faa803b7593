import fs from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import mjml2html from 'mjml';

/** Every email the service sends; each has `templates/<kind>.mjml` (HTML, subject in mj-title) and `<kind>.txt`. */
export const MAIL_KINDS = [
  'order-confirmation',
  'order-shipped',
  'order-delivered',
  'order-cancelled',
  'return-update',
  'welcome',
  'password-reset',
  'newsletter-confirmation',
  'back-in-stock',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** services/notifications/templates, from src/mail (jest) and dist/mail (the built service) alike. */
export const TEMPLATES_DIR = path.resolve(__dirname, '../../templates');

/** The values of a template: strings already formatted (money, dates), lists, and null for "absent". */
export type TemplateValues = Record<string, unknown>;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

interface CompiledKind {
  subject: Handlebars.TemplateDelegate;
  html: Handlebars.TemplateDelegate;
  text: Handlebars.TemplateDelegate;
}

const TITLE = /<mj-title>([\s\S]*?)<\/mj-title>/;

/**
 * The email templates, compiled once (at start): MJML → responsive HTML with the Handlebars placeholders left in
 * it, then Handlebars over that HTML (values HTML-escaped), over the plain text and over the subject (not escaped:
 * neither is HTML). `strict` Handlebars: a placeholder without a value fails the render instead of sending a
 * blank, so callers pass every key (null when absent).
 */
export class MailTemplates {
  private constructor(private readonly compiled: Map<MailKind, CompiledKind>) {}

  static async load(dir = TEMPLATES_DIR): Promise<MailTemplates> {
    const hbs = Handlebars.create();
    const compiled = new Map<MailKind, CompiledKind>();
    for (const kind of MAIL_KINDS) {
      const file = path.join(dir, `${kind}.mjml`);
      const [source, text] = await Promise.all([
        fs.readFile(file, 'utf8'),
        fs.readFile(path.join(dir, `${kind}.txt`), 'utf8'),
      ]);
      const title = TITLE.exec(source)?.[1].trim();
      if (!title) throw new Error(`${path.relative(process.cwd(), file)}: no <mj-title> (the subject)`);
      // mj-include is off by default in MJML 5: on, and confined to the templates folder.
      const { html, errors } = await mjml2html(source, {
        validationLevel: 'strict',
        filePath: file,
        ignoreIncludes: false,
        includePath: dir,
      });
      if (errors.length)
        throw new Error(`${kind}.mjml: ${errors.map((e) => e.formattedMessage ?? e.message).join('; ')}`);
      compiled.set(kind, {
        subject: hbs.compile(title, { noEscape: true, strict: true }),
        html: hbs.compile(html, { strict: true }),
        text: hbs.compile(text, { noEscape: true, strict: true }),
      });
    }
    return new MailTemplates(compiled);
  }

  render(kind: MailKind, values: TemplateValues): RenderedMail {
    const t = this.compiled.get(kind);
    if (!t) throw new Error(`no template for ${kind}`);
    return {
      // a subject is one line, whatever a value holds
      subject: t.subject(values).replace(/\s+/g, ' ').trim(),
      html: t.html(values),
      text: t.text(values).replace(/\n{3,}/g, '\n\n'),
    };
  }
}
