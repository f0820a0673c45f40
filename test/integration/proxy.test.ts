/**
 * The real CLI (its own process, as NODE_EXTRA_CA_CERTS is read at start-up) reaching the services
 * through an HTTPS_PROXY: a CONNECT proxy that asks for a user and password, tunnelling to a TLS
 * front of the emulator under a name no resolver knows (api.docket.test), so only the proxy can
 * reach it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runBin } from '../helpers/bin.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';

const TLS_DIR = fileURLToPath(new URL('../helpers/tls/', import.meta.url));
const CERT = `${TLS_DIR}api.docket.test.crt`;
const PASSWORD = 's3cret/pw';

let t: TestEmulator;
let front: TlsServer;
let proxy: Server;
let proxyPort = 0;
const tunnels: string[] = [];

function listening(server: Server | TlsServer | NetServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  t = await startTestEmulator();
  const emulatorPort = Number(new URL(t.env.DOCKET_REVIEW_URL!).port);
  // TLS in front of the emulator: what a real service's https is, with a certificate for api.docket.test.
  front = createTlsServer({ key: readFileSync(`${TLS_DIR}api.docket.test.key`), cert: readFileSync(CERT) }, (socket) => {
    const upstream = connect(emulatorPort, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  const frontPort = await listening(front);
  proxy = createServer();
  proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    const expected = `Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`;
    if (req.headers['proxy-authorization'] !== expected) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n');
      return;
    }
    tunnels.push(req.url ?? '');
    const upstream = connect(frontPort, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  proxyPort = await listening(proxy);
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => front.close(resolve));
  await t.emulator.close();
  await removeMadeDirs();
});

const PLAYBOOK = 'kind: Playbook\nname: Proxied NDA\nrules:\n  - name: Term\n    actions: ACCEPT up to 3 years\n';

function env(proxyUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DOCKET_REVIEW_URL: 'https://api.docket.test/review',
    DOCKET_AGREEMENTS_URL: 'https://api.docket.test/agreements',
    DOCKET_ORGANIZATION_ID: t.env.DOCKET_ORGANIZATION_ID!,
    DOCKET_API_KEY: t.env.DOCKET_API_KEY!,
    NODE_EXTRA_CA_CERTS: CERT,
    HTTPS_PROXY: proxyUrl,
    ...extra,
  };
}

describe('HTTPS_PROXY', () => {
  it('applies and plans through the proxy, its password sent and never printed, and NO_PROXY connects directly', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': PLAYBOOK });
    const through = env(`http://bob:${encodeURIComponent(PASSWORD)}@127.0.0.1:${proxyPort}`);
    const applied = await runBin(['apply', '-C', dir, '--auto-approve', '-v'], through);
    expect([applied.code, applied.stderr.includes('error')], applied.stdout + applied.stderr).toEqual([0, false]);
    expect(applied.stdout).toContain('Apply complete');
    expect(tunnels.length).toBeGreaterThan(0);
    expect(new Set(tunnels)).toEqual(new Set(['api.docket.test:443']));
    const again = await runBin(['plan', '-C', dir], through);
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
    for (const out of [applied.stdout, applied.stderr, again.stdout, again.stderr]) expect(out).not.toContain('s3cret');

    // Listed in NO_PROXY, the host is reached directly: here no resolver knows it, and the proxy is not asked.
    const before = tunnels.length;
    const direct = await runBin(['plan', '-C', dir], { ...through, NO_PROXY: '.docket.test' });
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('ENOTFOUND');
    expect(tunnels.length).toBe(before);
  }, 60_000);

  it('says a proxy that refuses the user and password written in its URL as such, not retried, the password never printed (probe BD-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': PLAYBOOK });
    const wrong = await runBin(['plan', '-C', dir], env(`http://bob:not-${encodeURIComponent(PASSWORD)}@127.0.0.1:${proxyPort}`));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the proxy answered HTTP 407 instead of connecting to the service');
    // Whole as printed: output's hiding of URL passwords leaves it as written (second read SR98B-2).
    expect(wrong.stderr).toContain('hint: the proxy HTTPS_PROXY names refused the user name and password written in it: check them (a character such as @, : or % in either written percent-escaped, %40, %3A, %25; docket never prints them)');
    // Written with none, the proxy asks for them.
    const none = await runBin(['plan', '-C', dir], env(`http://127.0.0.1:${proxyPort}`));
    expect(none.stderr).toContain("hint: the proxy HTTPS_PROXY names asks for a user name and password: write them in it as user:password@ before the proxy's host (docket never prints them)");
    expect(wrong.stderr).not.toContain('s3cret');
    // A proxy that takes the connection and never answers its CONNECT: the run ends with its --timeout,
    // not undici's 300 s (second read SR98B-1; runBin kills a run past 60 s).
    const silent = createNetServer((socket) => socket.on('error', () => undefined));
    const silentPort = await listening(silent);
    try {
      const hung = await runBin(['plan', '-C', dir, '--timeout', '2s'], env(`http://127.0.0.1:${silentPort}`));
      expect([hung.code, hung.stderr]).toEqual([1, expect.stringMatching(/time|timeout/i)]);
    } finally {
      silent.close();
    }
    // A server that closes every CONNECT (no proxy, or one that refuses so): a few attempts with
    // backoff, said as the proxy's doing, not a connection made again at once for as long as the
    // request waits (probe ZJ-2).
    let connects = 0;
    const closing = createServer();
    closing.on('connect', (_req: IncomingMessage, socket: Socket) => {
      connects++;
      socket.destroy();
    });
    const closingPort = await listening(closing);
    try {
      const closed = await runBin(['plan', '-C', dir, '--timeout', '4s'], env(`http://127.0.0.1:${closingPort}`));
      expect(closed.code).toBe(1);
      expect(closed.stderr).toContain('the proxy closed the connection instead of opening the tunnel to the service');
      expect(connects).toBeLessThan(30);
    } finally {
      closing.close();
    }
    // A proxy docket cannot use is refused before any connection, naming the variable.
    const socks = await runBin(['plan', '-C', dir], env('socks5://bob:s3cret@127.0.0.1:1080'));
    expect([socks.code, socks.stderr]).toEqual([1, expect.stringContaining('HTTPS_PROXY "socks5://***@127.0.0.1:1080" is a socks5 proxy: docket connects through http(s) proxies only')]);
  }, 60_000);
});
