// Stops everything global-setup.mjs started (the same module instance holds the handles).
import { stopAll } from '../scripts/lib/procs.mjs';

export default async function globalTeardown() {
  await stopAll();
}
