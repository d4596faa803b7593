import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The unsubscribe link's token: the address and an HMAC of it, keyed by a key derived from the service's secret (so
 * it works without signing in and cannot be made for another address). base64url parts joined by a dot.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`stock-alert-unsubscribe:${secret}`).digest();
  }

  sign(email: string): string {
    const body = Buffer.from(email, 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The address a token was made for, or null when it was not made by us (or not for that address). */
  verify(token: string): string | null {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const email = Buffer.from(body, 'base64url').toString('utf8');
    return email.includes('@') ? email : null;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
