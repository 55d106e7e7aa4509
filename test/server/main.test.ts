/**
 * The server as a process: the compiled server (build/server/main.js, what production runs with plain node; built
 * here by scripts/buildServer.ts when missing or out of date, about a second) starts from the environment, serves, and exits cleanly on SIGTERM;
 * src/server/main.ts under tsx refuses bad settings the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from '../../scripts/buildServer.js';
import { PROJECT_ROOT } from '../../src/configuration/load.js';
import { freePort } from './support/testApp.js';

function startMain(env: Record<string, string>, compiled = false): { child: ChildProcess; output: () => string } {
  let output = '';
  const args = compiled ? [SERVER_MAIN] : ['--import', 'tsx', path.join(PROJECT_ROOT, 'src/server/main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('server/main', function () {
  this.timeout(30_000);

  it('compiled: runs with plain node, listens on PORT, serves its assets and settings-driven pages, and closes cleanly on SIGTERM', async function () {
    this.timeout(90_000); // a loaded CI machine takes a while to start PGlite
    if (serverBuildIsStale()) await buildServer();
    expect(readFileSync(SERVER_MAIN, 'utf8')).not.to.match(/from ["']tsx/);
    const port = await freePort();
    const { child, output } = startMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory://',
      SEED: 'none',
      LOG_LEVEL: 'info',
      DIST_DIR: path.join(os.tmpdir(), 'portal-no-dist'),
    }, true);
    try {
      const response = await waitForHealth(`http://127.0.0.1:${port}/healthz`, child, 60_000);
      expect(response.status).to.equal(200);
      // the provider's page assets beside the bundle, the locales and form schemas read from the project at run time
      expect((await fetch(`http://127.0.0.1:${port}/oidc/assets/signin.css`)).status).to.equal(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/docs/json`)).status).to.equal(200);
      const invalid = await fetch(`http://127.0.0.1:${port}/api/v2/admin/reset_password_token_call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(invalid.status).to.equal(422);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output()).to.equal(0);
      expect(output()).to.include('closing');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses to start with an invalid setting and says which', async () => {
    const { child, output } = startMain({ PORT: 'not-a-port', SEED: 'sometimes' });
    const [code] = await once(child, 'exit');
    expect(code).to.equal(1);
    expect(output()).to.match(/Invalid configuration/).and.match(/PORT/).and.match(/SEED/);
  });
});
