/** src/server/main.ts as a process: starts from the environment, serves, and exits cleanly on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/configuration/load.js';
import { freePort } from './support/testApp.js';

function startMain(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'src/server/main.ts')], {
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

  it('listens on PORT and closes cleanly on SIGTERM', async () => {
    const port = await freePort();
    const { child, output } = startMain({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory://',
      SEED: 'none',
      LOG_LEVEL: 'info',
      DIST_DIR: path.join(os.tmpdir(), 'portal-no-dist'),
    });
    try {
      const response = await waitForHealth(`http://127.0.0.1:${port}/healthz`, child, 20_000);
      expect(response.status).to.equal(200);
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
