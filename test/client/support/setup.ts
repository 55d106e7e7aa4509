/**
 * Loaded before every browser-side test (scripts/test.ts, group client): Testing Library's `findBy…` and `waitFor`
 * wait up to 5 s instead of 1 s. Forms load their widgets (captcha, learner grid) and RJSF as chunks on first use,
 * which on a busy CI machine took longer than a second and failed tests that were right.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
