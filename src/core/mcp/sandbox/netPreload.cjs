'use strict';
// Loaded into every Node process of a sandboxed server (NODE_OPTIONS=--require): the sandbox has no
// network of its own, only its proxy, and Node's own fetch (before Node 24), http and sockets do not
// read proxy settings. Here each TCP connection the process opens goes through the proxy as an HTTP
// CONNECT tunnel (the proxy decides whether the host is allowed), and TLS runs inside the tunnel.
// Loopback connections stay inside the sandbox (a server's own helpers) unless the host is one the
// server may reach on the machine (MINAGENT_SANDBOX_LOOPBACK, host:port pairs).
// Plain CommonJS, no dependencies: it runs before the server's own code, in whatever Node it uses.

require('./readNotes.cjs');

const net = require('node:net');
const tls = require('node:tls');
const { Duplex } = require('node:stream');

const proxyUrl = process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy;
if (process.env.MINAGENT_IN_SANDBOX === '1' && proxyUrl) install(new URL(proxyUrl));

function install(proxy) {
  const proxyHost = proxy.hostname;
  const proxyPort = Number(proxy.port) || 3128;
  const auth = proxy.username
    ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`
    : '';
  const loopbackAllowed = new Set((process.env.MINAGENT_SANDBOX_LOOPBACK || '').split(',').filter(Boolean));
  const originalConnect = net.Socket.prototype.connect;
  const originalTlsConnect = tls.connect;
  const TUNNEL = Symbol('minagent.tunnel');

  const isLoopback = (host) => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
  const bracket = (host) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  /** Whether a connection to host:port goes through the proxy. */
  const tunnelled = (host, port) => {
    if (host === proxyHost && Number(port) === proxyPort) return false;
    if (isLoopback(host))
      return (
        loopbackAllowed.has(`${bracket(host)}:${port}`) ||
        (host === '127.0.0.1' && loopbackAllowed.has(`localhost:${port}`)) ||
        (host === 'localhost' && loopbackAllowed.has(`127.0.0.1:${port}`))
      );
    return true;
  };

  // net.connect() hands Socket#connect its arguments already normalized, as one array.
  const normalize = (args) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : net._normalizeArgs(args));

  net.Socket.prototype.connect = function tunnelledConnect(...args) {
    const normalized = normalize(args);
    const options = normalized[0];
    const cb = normalized[1];
    if (this[TUNNEL] || this instanceof tls.TLSSocket || options.path || options.port === undefined)
      return originalConnect.apply(this, args);
    const host = options.host || 'localhost';
    if (tunnelled(host, options.port)) return tunnel(this, host, Number(options.port), cb);
    if (isLoopback(host)) hintOnRefusal(this, `${bracket(host)}:${options.port}`);
    return originalConnect.apply(this, args);
  };

  /**
   * A loopback port not among the allowed hosts is the sandbox's own: refused there, it may have been
   * a service of the machine, and the server's log says how to allow it.
   */
  function hintOnRefusal(socket, target) {
    socket.once('error', (err) => {
      if (err && err.code === 'ECONNREFUSED') {
        process.stderr.write(
          `[minagent sandbox] connection to ${target} refused inside the sandbox; if it is a service on this machine, allow it with "${target}" in the entry's sandbox.network.allowedDomains\n`,
        );
      }
    });
  }

  /**
   * Connects `socket` to the proxy and asks it for host:port. The socket says `connect` once the
   * proxy is reached (Node's own reads and writes wait for that event); what the caller writes is
   * held (corked) until the proxy has opened the tunnel, and the proxy's answer is taken out of what
   * the caller reads. A refusal ends the socket with ECONNREFUSED.
   */
  function tunnel(socket, host, port, cb) {
    socket[TUNNEL] = true;
    const target = `${bracket(host)}:${port}`;
    // The proxy's answer is taken from the bytes before the stream sees them (whether they are read
    // as `data` events or with read()).
    const push = socket.push;
    let head = Buffer.alloc(0);
    socket.push = function held(chunk, encoding) {
      if (chunk === null) return push.call(this, chunk, encoding);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return true;
      socket.push = push;
      const status = head.subarray(0, end).toString('latin1').split('\r\n')[0];
      const after = head.subarray(end + 4);
      if (!/^HTTP\/1\.[01] 200\b/.test(status)) {
        const err = new Error(
          `connect ECONNREFUSED ${target}: the sandbox's proxy refused it (${status.slice(0, 120)}); the server's sandbox may reach only the hosts its entry allows (sandbox.network.allowedDomains)`,
        );
        err.code = 'ECONNREFUSED';
        socket.destroy(err);
        return false;
      }
      socket.uncork();
      return after.length ? push.call(this, after) : true;
    };
    if (cb) socket.once('connect', cb);
    originalConnect.call(socket, { host: proxyHost, port: proxyPort });
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
    socket.cork();
    return socket;
  }

  tls.connect = function tunnelledTlsConnect(...args) {
    const normalized = normalize(args);
    const options = { ...normalized[0] };
    const cb = normalized[1];
    if (options.socket || options.path || options.port === undefined) return originalTlsConnect.apply(this, args);
    const host = options.host || 'localhost';
    if (!tunnelled(host, options.port)) return originalTlsConnect.apply(this, args);
    const raw = net.connect({ host, port: options.port });
    options.socket = streamOf(raw);
    if (options.servername === undefined && !net.isIP(host)) options.servername = host;
    return cb ? originalTlsConnect.call(this, options, cb) : originalTlsConnect.call(this, options);
  };

  /** The tunnel as a plain stream for TLS to run over: what TLS writes waits until the tunnel is up. */
  function streamOf(raw) {
    let up = false;
    const waiting = [];
    const stream = new Duplex({
      read() {},
      write(chunk, encoding, done) {
        if (up) raw.write(chunk, encoding, done);
        else waiting.push([chunk, encoding, done]);
      },
      final(done) {
        raw.end();
        done();
      },
      destroy(err, done) {
        raw.destroy();
        done(err);
      },
    });
    raw.on('connect', () => {
      up = true;
      for (const [chunk, encoding, done] of waiting.splice(0)) raw.write(chunk, encoding, done);
    });
    raw.on('data', (chunk) => stream.push(chunk));
    raw.on('end', () => stream.push(null));
    raw.on('error', (err) => stream.destroy(err));
    raw.on('close', () => stream.destroy());
    return stream;
  }
}
