/**
 * Home's overview (screens/home.json, issue 30) as each role's answer has it: a member's answer carries no manager's
 * part (pending_invitations, open_classes: issue 44 finding 5), and the page shows a member the upcoming applications
 * and the chart all the same; a manager's shows the To do panel from its parts.
 */
import { expect } from 'chai';
import { cleanup } from '@testing-library/react';
import { jsonResponse } from '../../api/harness.js';
import { MANAGER, MEMBER, renderScreen } from './support.js';

const OVERVIEW = 'GET /api/v2/organizations/1/overview';
const SERVICES = { 'GET /api/v2/services': () => jsonResponse(200, { services: [] }) };
const MEMBER_ANSWER = {
  today: '2026-11-30',
  upcoming_applications: [
    {
      request_code: 'A000000101',
      service_group: { id: 2, name: 'Online MBA 2.0' },
      starts_on: '2026-12-30',
      user_count: 3,
      change_deadline: '2026-12-25',
      is_updatable: true,
      business_days_left: 18,
      deadline_near: false,
    },
  ],
  learners_by_month: [{ month: '2026-12', service_group_id: 2, service_group_name: 'Online MBA 2.0', learners: 3 }],
};
const MANAGER_ANSWER = {
  ...MEMBER_ANSWER,
  pending_invitations: 2,
  open_classes: [{ project_code: 'GLS', project_name: 'Global Leaders', id: 7, name: 'GLS-A', starts_on: '2026-12-21', registration_deadline: '2026-12-17' }],
};

describe('Home: the overview by role (issue 44 finding 5)', () => {
  afterEach(() => cleanup());

  it("shows a member the upcoming applications and the chart from an answer without the manager's part, and no To do panel", async () => {
    const { view } = await renderScreen('home', { signedIn: MEMBER, routes: { ...SERVICES, [OVERVIEW]: () => jsonResponse(200, MEMBER_ANSWER) } });
    await view.findByRole('table', { name: /Applications starting in the next 90 days/ });
    view.getByText('A000000101');
    view.getByRole('img', { name: 'Learners by month' });
    expect(view.queryByText('To do')).to.equal(null);
    expect(view.queryByText(/Invitations not yet accepted/)).to.equal(null);
  });

  it('shows a manager the To do panel: the invitations not accepted and the classes open for registration', async () => {
    const { view } = await renderScreen('home', { signedIn: MANAGER, routes: { ...SERVICES, [OVERVIEW]: () => jsonResponse(200, MANAGER_ANSWER) } });
    await view.findByText('Invitations not yet accepted: 2');
    view.getByRole('link', { name: 'Global Leaders: GLS-A' });
  });
});
