/**
 * Debian's SimpleSAMLphp (1.19) as a customer's SAML IdP for end-to-end tests (issue 45; DESIGN 'Known traps'): PHP's
 * built-in server on a free loopback port over /usr/share/simplesamlphp/www, configured by a folder written here
 * (SIMPLESAMLPHP_CONFIG_DIR): a copy of Debian's config.php with this folder's paths, the IdP on, exampleauth on, its
 * session cookie SameSite=Lax (chromium drops SameSite=None without Secure over http); an exampleauth:UserPass user;
 * its session cookie not Secure (plain http); the hosted IdP with a key pair made here (SHA-256 signatures, the NameID the user's e-mail); the portal's SP, named
 * once the connection is made (`registerServiceProvider`). The server dies with the test process (children.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { spawnChild, stopChild } from '../../support/children.js';

const PHP = '/usr/bin/php';
const WWW = '/usr/share/simplesamlphp/www';
const DEBIAN_CONFIG = '/etc/simplesamlphp/config.php';
export const SIMPLESAMLPHP_ENTITY_ID = 'urn:test:simplesamlphp-idp';

/** php, SimpleSAMLphp and its configuration are installed (.ci/run installs them: simplesamlphp php-xml php-cli). */
export const simpleSamlPhpInstalled = () => [PHP, WWW, DEBIAN_CONFIG].every((file) => existsSync(file));

export interface SimpleSamlPhpUser {
  username: string;
  password: string;
  email: string;
}

export interface SimpleSamlPhp {
  url: string;
  /** The IdP's metadata, as the IdP publishes it. */
  metadataUrl: string;
  /** Names the portal's SP (its entity ID and ACS URL) at the IdP. */
  registerServiceProvider(sp: { entityId: string; acsUrl: string }): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`php exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`SimpleSAMLphp did not answer at ${url}`);
}

export async function startSimpleSamlPhp(user: SimpleSamlPhpUser): Promise<SimpleSamlPhp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'simplesamlphp-'));
  for (const sub of ['metadata', 'cert', 'log', 'tmp', 'data']) mkdirSync(path.join(dir, sub));

  const pems = await generate([{ name: 'commonName', value: 'simplesamlphp test idp' }], { keySize: 2048, algorithm: 'sha256' });
  writeFileSync(path.join(dir, 'cert', 'idp.pem'), pems.private);
  writeFileSync(path.join(dir, 'cert', 'idp.crt'), pems.cert);

  // Debian's file, without its secrets (root's, and not the test's), then the test's settings over it
  const debian = readFileSync(DEBIAN_CONFIG, 'utf8').replace(/^\s*require_once\(['"]\/var\/lib\/simplesamlphp\/secrets\.inc\.php['"]\);\s*$/m, '');
  const settings: Array<[string, string]> = [
    ['baseurlpath', php(`${url}/`)],
    ['metadatadir', php(`${path.join(dir, 'metadata')}/`)],
    ['certdir', php(`${path.join(dir, 'cert')}/`)],
    ['loggingdir', php(`${path.join(dir, 'log')}/`)],
    ['tempdir', php(path.join(dir, 'tmp'))],
    ['datadir', php(`${path.join(dir, 'data')}/`)],
    ['logging.handler', php('file')],
    ['secretsalt', php('a-salt-of-the-e2e-test-only')],
    ['auth.adminpassword', php('an-admin-password-of-the-e2e-test')],
    ['enable.saml20-idp', 'true'],
    ['module.enable', "['exampleauth' => true, 'core' => true, 'saml' => true]"],
    ['session.cookie.secure', 'false'],
    ['session.cookie.samesite', php('Lax')],
    ['language.cookie.samesite', php('Lax')],
    ['session.phpsession.savepath', php(path.join(dir, 'tmp'))],
  ];
  writeFileSync(path.join(dir, 'config.php'), `${debian.trimEnd()}\n${settings.map(([key, value]) => `$config[${php(key)}] = ${value};`).join('\n')}\n`);
  writeFileSync(
    path.join(dir, 'authsources.php'),
    `<?php\n$config = [\n  'admin' => ['core:AdminPassword'],\n  'example-userpass' => ['exampleauth:UserPass', ${php(`${user.username}:${user.password}`)} => ['email' => [${php(user.email)}]]],\n];\n`,
  );
  writeFileSync(
    path.join(dir, 'metadata', 'saml20-idp-hosted.php'),
    `<?php\n$metadata[${php(SIMPLESAMLPHP_ENTITY_ID)}] = [\n  'host' => '__DEFAULT__',\n  'privatekey' => 'idp.pem',\n  'certificate' => 'idp.crt',\n  'auth' => 'example-userpass',\n`
      + "  'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',\n  'saml20.sign.assertion' => true,\n];\n",
  );
  writeFileSync(path.join(dir, 'metadata', 'saml20-sp-remote.php'), '<?php\n');

  const child = spawnChild(PHP, ['-S', `127.0.0.1:${port}`, '-t', WWW], { env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir }, stdio: ['ignore', 'ignore', 'ignore'] });
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const metadataUrl = `${url}/saml2/idp/metadata.php`;
  try {
    await waitUntilReady(metadataUrl, child);
  } catch (error) {
    const log = path.join(dir, 'log', 'simplesamlphp.log');
    if (existsSync(log)) console.error(readFileSync(log, 'utf8').slice(-2000));
    await stop();
    throw error;
  }
  return {
    url,
    metadataUrl,
    registerServiceProvider(sp) {
      writeFileSync(
        path.join(dir, 'metadata', 'saml20-sp-remote.php'),
        `<?php\n$metadata[${php(sp.entityId)}] = [\n  'AssertionConsumerService' => ${php(sp.acsUrl)},\n`
          + "  'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',\n"
          + "  'authproc' => [10 => ['class' => 'saml:AttributeNameID', 'attribute' => 'email', 'Format' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress']],\n"
          + "  'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',\n];\n",
      );
    },
    stop,
  };
}
