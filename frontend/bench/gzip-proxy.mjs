// A measuring aid, not part of the shop: forwards every request to the local gateway (TARGET) and gzips
// text answers, as CloudFront does in front of the deployed shop. The local gateway sends JavaScript
// uncompressed, which Lighthouse's slow-4G model charges in full; run Lighthouse through this proxy to see
// the figures a compressed delivery would give.
//
//   TARGET=http://127.0.0.1:3000 PORT=3001 node bench/gzip-proxy.mjs
import http from 'node:http';
import { gzipSync } from 'node:zlib';

const target = new URL(process.env.TARGET ?? 'http://127.0.0.1:3000');
const port = Number(process.env.PORT ?? 3001);
const compressible = /^(text\/|application\/(json|javascript)|image\/svg\+xml)/;

http
  .createServer((request, response) => {
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host, 'accept-encoding': 'identity' } },
      (answer) => {
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          if (compressible.test(headers['content-type'] ?? '') && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') && body.length > 1024) {
            body = gzipSync(body, { level: 6 });
            headers['content-encoding'] = 'gzip';
            headers.vary = 'accept-encoding';
          }
          headers['content-length'] = String(body.length);
          delete headers['transfer-encoding'];
          response.writeHead(answer.statusCode ?? 502, headers);
          response.end(body);
        });
      },
    );
    upstream.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  })
  .listen(port, '127.0.0.1', () => console.log(`gzip proxy on http://127.0.0.1:${port} -> ${target.href}`));
