/**
 * Loaded before every browser-side test (scripts/test.ts, group client): Testing Library's `findBy…` and `waitFor`
 * wait up to 5 s instead of 1 s. Forms load their widgets (captcha, learner grid) and RJSF as chunks on first use,
 * which on a busy CI machine took longer than a second and failed tests that were right.
 * From @testing-library/dom, not …/react: React must not load before a test has registered its DOM (its change
 * events choose their implementation from the document they find then).
 */
import { configure } from '@testing-library/dom';
import { provideReportSender } from '../../../src/client/api/report.js';
import * as reportSender from '../../../src/client/api/reportSender.js';

configure({ asyncUtilTimeout: 5000 });
// the error report's sender, a chunk of its own in the browser, at hand at once: a test that waits a fixed number of
// turns for a saga (the harness's settle) does not outwait a dynamic import (neither module needs a DOM)
provideReportSender(reportSender);
