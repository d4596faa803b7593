import { createSecretKey, type KeyObject } from 'node:crypto';

/**
 * JWT_SECRET as the HMAC key object the JwtModule signs and verifies with: the same key as the string (its UTF-8
 * bytes), so tokens signed with either verify with the other. Given a string, jsonwebtoken (v9) first tries to read
 * it as a PEM public or private key on every verify and sign, and makes the secret key only after that throws: about
 * 0.6 ms of CPU per token, against ~15 µs with the key object (docs/performance.md, "Token verification").
 */
export function jwtSecretKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}
