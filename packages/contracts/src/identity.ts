export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A user as every response shows it: never a password hash. */
export interface PublicUser {
  _id: string;
  name: string;
  email: string;
  role: Role;
  createdAt?: string;
  updatedAt?: string;
}

export interface AuthResponse {
  user: PublicUser;
  token: string;
}

/** The claims identity signs into every JWT and the shared guard reads back. */
export interface TokenClaims {
  sub: string;
  role: Role;
  name: string;
  /** Issued-at in milliseconds: revocation compares against it (JWT `iat` has one-second granularity). */
  iatMs: number;
}

/** Redis key holding "tokens of this user issued before T (ms) are void". */
export function revocationKey(userId: string): string {
  return `auth:revoked-before:${userId}`;
}

export const NAME_MAX_LENGTH = 100;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** POST /api/users/forgot-password: answered 202 `{message}` whatever the email (no account enumeration). */
export interface ForgotPasswordRequest {
  email: string;
}

/** POST /api/users/reset-password: answered as login (`AuthResponse`), signed in. */
export interface ResetPasswordRequest {
  token: string;
  password: string;
}

/** The password reset's answers, shared by identity and the SPA. */
export const PASSWORD_RESET_MESSAGES = {
  requested: 'If an account exists for that email, we have sent a link to reset its password.',
  invalidToken: 'This password reset link is invalid or has expired. Please request a new one.',
} as const;
