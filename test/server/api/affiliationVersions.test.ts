/**
 * No lost update on an admin's role (issue 28): every affiliation of the list carries its version (`etag`); a role
 * change or a removal with If-Match is made only on that version, else 412 naming the manager who changed the role,
 * and nothing changes. On the demo data: manager@ (1) and manager2@ manage G0000001 (id 1), member@ (2) is a member.
 */
import { expect } from 'chai';
import { demoManagers } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

describe("Versions of an admin's affiliation: etag, If-Match, 412 (issue 28)", function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let as: Awaited<ReturnType<typeof demoManagers>>;

  before(async () => {
    as = await demoManagers(ctx.app, ctx.db);
  });

  const affiliationsUrl = '/api/v2/organizations/1/affiliations';
  const memberUrl = `${affiliationsUrl}/admins/2`;
  const listed = async (adminId: number) => ((await ctx.app.inject({ url: affiliationsUrl, headers: as.manager })).json().affiliations as Json[]).find((row) => row.admin.id === adminId)!;
  const setRole = (headers: Record<string, string>, role: string) => ctx.app.inject({ method: 'PATCH', url: memberUrl, headers, payload: { role } });

  it("refuses a role change made on a version another manager has changed since (412, who and when), and keeps that manager's change", async () => {
    const seen = await listed(2); // A and B both see member@ as a member
    expect(seen.etag).to.match(/^"[^"]+"$/);
    const byB = await setRole({ ...as.manager2, 'if-match': seen.etag }, 'manager');
    expect(byB.statusCode, byB.body).to.equal(200);
    expect(byB.headers.etag).to.equal(byB.json().affiliation.etag).and.not.equal(seen.etag);

    // A, who saw a member, makes them a member again over B's promotion: refused
    const byA = await setRole({ ...as.manager, 'if-match': seen.etag, 'accept-language': 'en' }, 'member');
    expect(byA.statusCode).to.equal(412);
    expect(byA.json()).to.deep.include({ error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' } });
    const now = await listed(2);
    expect(now).to.include({ role: 'manager', etag: byB.headers.etag });

    const onLatest = await setRole({ ...as.manager, 'if-match': now.etag }, 'member');
    expect(onLatest.statusCode, onLatest.body).to.equal(200);
    expect((await listed(2)).role).to.equal('member');
  });

  it("keeps the version through the admin's own first sign-in (no manager's change), and accepts a change without If-Match", async () => {
    const seen = await listed(2);
    await ctx.db.updateTable('affiliations').set({ firstSignedInAt: null }).where('adminId', '=', 2).where('organizationId', '=', 1).execute();
    await ctx.db.updateTable('affiliations').set({ firstSignedInAt: new Date() }).where('adminId', '=', 2).where('organizationId', '=', 1).execute();
    expect((await listed(2)).etag).to.equal(seen.etag);
    expect((await setRole({ ...as.manager, 'if-match': 'W/' + seen.etag }, 'manager')).statusCode, 'weak').to.equal(412);
    expect((await setRole({ ...as.manager, 'if-match': 'garbage' }, 'manager')).statusCode, 'garbage').to.equal(400);
    expect((await setRole(as.manager, 'manager')).statusCode, 'no If-Match: as SPEC clients send').to.equal(200);
    expect((await setRole(as.manager, 'member')).statusCode).to.equal(200);
  });

  it('removes only the version named; after a removal the admin is gone (409)', async () => {
    const seen = await listed(2);
    await setRole(as.manager2, 'manager');
    const stale = await ctx.app.inject({ method: 'DELETE', url: memberUrl, headers: { ...as.manager, 'if-match': seen.etag } });
    expect(stale.statusCode).to.equal(412);
    expect(stale.json().changed_by.email).to.equal('manager2@example.com');
    const now = await listed(2);
    expect(now.role, 'still there').to.equal('manager');
    expect((await ctx.app.inject({ method: 'DELETE', url: memberUrl, headers: { ...as.manager, 'if-match': now.etag } })).statusCode).to.equal(204);
    expect((await ctx.app.inject({ method: 'DELETE', url: memberUrl, headers: { ...as.manager, 'if-match': '*' } })).statusCode).to.equal(409);
  });
});
