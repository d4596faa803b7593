// Development secrets: generated once per checkout and kept in .data/dev-secrets.json (git-ignored),
// so tokens issued by `npm start` survive a restart. Tests make their own per run.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, log } from './util.mjs';

const FILE = path.join(DATA_DIR, 'dev-secrets.json');

export const randomSecret = () => crypto.randomBytes(48).toString('base64url');

/** Returns { jwtSecret, ... }, creating the file (mode 600) on first use; new keys are added as needed. */
export function devSecrets() {
  let secrets = {};
  try {
    secrets = JSON.parse(fs.readFileSync(FILE, 'utf8'));
  } catch {
    // first run (or an unreadable file): make new ones
  }
  if (typeof secrets.jwtSecret !== 'string' || secrets.jwtSecret.length < 32) {
    secrets.jwtSecret = randomSecret();
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.writeFileSync(FILE, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    log(`generated a development JWT secret in ${path.relative(process.cwd(), FILE) || FILE}`);
  }
  return secrets;
}
