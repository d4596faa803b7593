// Dead letters of one event consumer, for operators (run `npm run build` first; uses nest-common's DeadLetters).
//   node scripts/dlq.mjs list   <consumer queue> [limit]     e.g. node scripts/dlq.mjs list catalog.events
//   node scripts/dlq.mjs replay <consumer queue> [limit]     sends them back to the consumer, attempts reset
// RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672) says which broker.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const [command, queue, limitArg] = process.argv.slice(2);
if (!['list', 'replay'].includes(command) || !queue) {
  console.error('usage: node scripts/dlq.mjs list|replay <consumer queue, e.g. catalog.events> [limit]');
  process.exit(2);
}
let DeadLetters;
try {
  ({ DeadLetters } = require('../packages/nest-common/dist/index.js'));
} catch {
  console.error('dlq: packages/nest-common is not built; run `npm run build` (or `npm start` once) first');
  process.exit(1);
}
const url = process.env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';
const limit = limitArg ? Number(limitArg) : undefined;

try {
  const dlq = await DeadLetters.open(url, queue);
  try {
    if (command === 'list') {
      const letters = await dlq.list(limit ?? 50);
      if (!letters.length) console.log(`${queue}.dlq is empty`);
      for (const d of letters) {
        console.log(`${d.failedAt ?? '?'}  ${d.type ?? '(not JSON)'}  ${d.eventId ?? ''}  attempts ${d.attempts}`);
        console.log(`    ${d.error ?? ''}`);
      }
    } else {
      console.log(`moved ${await dlq.replay(limit)} message(s) from ${queue}.dlq back to ${queue}`);
    }
  } finally {
    await dlq.close();
  }
} catch (err) {
  console.error(`dlq: ${err.message}`);
  process.exit(1);
}
