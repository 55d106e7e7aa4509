import { writeFileSync } from 'node:fs';
import { launchBrowser, newPage, startPortal } from '../test/e2e/support/portal.js';
import { signInAsManagerAt } from '../test/e2e/support/signin.js';
const portal = await startPortal();
const browser = await launchBrowser();
try {
  const page = await newPage(browser, []);
  await signInAsManagerAt(page, portal.url, '/', 'G0000001');
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  await session.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.CPU ?? 4) });
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  await page.goto(`${portal.url}${process.env.PAGE ?? '/'}`);
  await page.locator('main a[href^="/services/"]').first().waitFor();
  await page.waitForTimeout(1500);
  const { profile } = await session.send('Profiler.stop');
  writeFileSync('/tmp/trace/home.cpuprofile', JSON.stringify(profile));
} finally {
  await browser.close();
  await portal.stop();
}
