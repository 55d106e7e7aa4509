/**
 * Signing in through the embedded identity provider's pages (issue 3 §1): fields labelled 'Email' and 'Password', a
 * 'Sign in' button, and — for an admin of several organisations — one button per organisation (official name and
 * gloplaId) on 'Select Your Organization'.
 */
import type { Page } from 'playwright-core';
import { CALLBACK_PATH } from '../../../src/common/identity.js';
import { LANGUAGE_STORAGE_KEY } from '../../../src/common/languages.js';

export const DEMO_PASSWORD = 'DemoPassw0rd!';
export const MANAGER = 'manager@example.com';
export const MEMBER = 'member@example.com';

/**
 * Remembers English as the portal language, where the footer's language menu and `?locale=en` keep it (the provider
 * then gets ui_locales=en). Written on the portal's origin from its smallest document rather than from a page of the
 * portal: a cold load of the app costs chromium ~1 s of CPU, and nearly every test signs in.
 */
export async function useEnglish(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/readyz`);
  await page.evaluate((key) => window.localStorage.setItem(key, 'en'), LANGUAGE_STORAGE_KEY);
}

/** On the provider's sign-in page: enter the credentials and press 'Sign in'. */
export async function enterCredentials(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** On 'Select Your Organization': the organisation's button (its name shows the gloplaId). */
export async function chooseOrganization(page: Page, gloplaId: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(gloplaId) }).click();
}

/**
 * Back in the portal, signed in: the header shows '<official name> [<gloplaId>]' and the sign-in has finished. The
 * header shows while the callback page still saves the login (its loader on screen); a page opened before it
 * hands over to the page asked for has no login yet and signs in again.
 */
export async function waitForHeader(page: Page, organization: string): Promise<void> {
  await page.locator('.header__organization', { hasText: organization }).waitFor();
  await page.waitForURL((url) => url.pathname !== CALLBACK_PATH);
}

/** The account menu's link, by name. */
export async function openMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name }).click();
}

/** The manager, in English, opens `path`, signs in for the organisation and is brought back there. */
export async function signInAsManagerAt(page: Page, url: string, path: string, gloplaId: string): Promise<void> {
  await signInAt(page, url, path, { email: MANAGER, gloplaId, choose: true });
}

/**
 * A demo admin, in English, opens `path`, signs in (choosing the organisation when they have several: `choose`) and
 * is brought back there.
 */
export async function signInAt(page: Page, url: string, path: string, admin: { email: string; gloplaId: string; choose: boolean }): Promise<void> {
  await useEnglish(page, url);
  await page.goto(`${url}${path}`);
  await enterCredentials(page, admin.email, DEMO_PASSWORD);
  if (admin.choose) await chooseOrganization(page, admin.gloplaId);
  await page.waitForURL(`${url}${path}`);
  await waitForHeader(page, `[${admin.gloplaId}]`);
}
