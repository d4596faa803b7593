// The proxy of the framework two-hop (scripts/bench/cart.mjs): what the stack the shop is built on costs at the
// least — http-proxy-middleware alone on a bare Node server, over a keep-alive agent set as the gateway's, with
// none of the gateway's work (request ids, access log, metrics, security headers, CORS, rate limits, body limits,
// compression, Express). Beside the bare two-hop, it says how much of the gap is the libraries the shop must use
// and how much is the gateway's own. Its own process, like the gateway.
//   node scripts/bench/framework-proxy.mjs <upstream-url> <port>   (prints "listening <port>" when ready)
import http from 'node:http';
import { createProxyMiddleware } from 'http-proxy-middleware';

const [upstream, portArg] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' });
const proxy = createProxyMiddleware({ target: upstream, agent, changeOrigin: false, xfwd: true });

const server = http.createServer((req, res) =>
  proxy(req, res, () => {
    res.writeHead(404);
    res.end();
  }),
);
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg || 0), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));

const stop = () => {
  server.close();
  agent.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
