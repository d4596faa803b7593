// The yardstick for scripts/bench/catalog.mjs: a bare Node http server that answers every request with
// the very same bytes (and headers) the catalog sends for the product list. Runs as its own process,
// like the services, so the load generator never shares its event loop.
//   node scripts/bench/bare-server.mjs <body-file> <port>   (prints "listening <port>" when ready)
import fs from 'node:fs';
import http from 'node:http';

const [file, portArg] = process.argv.slice(2);
const body = fs.readFileSync(file);
const etag = process.env.BARE_ETAG || '"bare"';

const server = http.createServer((req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
    ETag: etag,
    'Cache-Control': 'public, no-cache',
  });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
