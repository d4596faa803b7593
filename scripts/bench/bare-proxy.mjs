// The proxy of the bare two-hop, the yardstick of scripts/bench/cart.mjs and browse.mjs: a bare Node http proxy in
// front of a bare server (bare-cart-server.mjs, bare-browse-server.mjs), the smallest hop a gateway → service request
// can take on Node — a keep-alive agent, the request's headers and body passed on, the answer's status, headers and
// body passed back. No logging, metrics, security headers, compression or timeouts. Its own process, like the gateway.
//   node scripts/bench/bare-proxy.mjs <upstream-url> <port>   (prints "listening <port>" when ready)
import http from 'node:http';

const [upstreamArg, portArg] = process.argv.slice(2);
const upstream = new URL(upstreamArg);
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const forwarded = http.request({
    host: upstream.hostname,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers: req.headers,
    agent,
  });
  forwarded.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  forwarded.on('error', () => {
    if (!res.headersSent) res.writeHead(503);
    res.end();
  });
  req.pipe(forwarded);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg || 0), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));

const stop = () => {
  server.close();
  agent.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
