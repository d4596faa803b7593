// The server end of the bare two-hop for scripts/bench/browse.mjs (bare-proxy.mjs in front of it; alone, an extra
// row): a bare Node http server answering every URL of the browse mix with the very bytes (and headers) the catalog
// sent for it, looked up in a Map. Its own process, like the services.
//   node scripts/bench/bare-browse-server.mjs <recording-file> <port>   (prints "listening <port>" when ready)
// The recording: a 4-byte length, that many bytes of JSON index {url: [offset, length, etag]}, then the bodies.
import fs from 'node:fs';
import http from 'node:http';

const [file, portArg] = process.argv.slice(2);
const recording = fs.readFileSync(file);
const indexLength = recording.readUInt32BE(0);
const bodies = recording.subarray(4 + indexLength);
const answers = new Map();
for (const [url, [offset, length, etag]] of Object.entries(JSON.parse(recording.subarray(4, 4 + indexLength)))) {
  answers.set(url, { body: bodies.subarray(offset, offset + length), etag });
}

const server = http.createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end('{"message":"Not recorded","statusCode":404}');
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': answer.body.length,
    ETag: answer.etag,
    'Cache-Control': 'public, no-cache',
  });
  res.end(answer.body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
