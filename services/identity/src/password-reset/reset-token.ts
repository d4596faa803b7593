import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: what the link carries. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What identity stores of a token: a plain SHA-256 suffices for 256 random bits (nothing to brute-force). */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/**
 * Seals the token for the outbox of its reset record with AES-256-GCM under a key derived from JWT_SECRET, so
 * the database never holds a usable token while the event waits for the broker (whoever holds JWT_SECRET can
 * sign in as anyone anyway). Opened by the relay on the way out.
 */
export class TokenSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'identity password-reset outbox', 32));
  }

  seal(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, data, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
