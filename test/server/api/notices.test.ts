import { expect } from 'chai';
import { useTestApp } from '../support/testApp.js';

describe('GET /api/v1/notices', () => {
  const ctx = useTestApp();
  const day = 24 * 60 * 60 * 1000;

  before(async () => {
    const now = Date.now();
    await ctx.db
      .insertInto('notices')
      .values([
        { target: 'enterprise_portal', contentJa: '常時', contentEn: 'Always' },
        { target: 'enterprise_portal', contentJa: '期間中', contentEn: 'Running', startsAt: new Date(now - day), endsAt: new Date(now + day) },
        { target: 'enterprise_portal', contentJa: '終了', contentEn: 'Ended', startsAt: new Date(now - 2 * day), endsAt: new Date(now - day) },
        { target: 'enterprise_portal', contentJa: '予定', contentEn: 'Planned', startsAt: new Date(now + day) },
        { target: 'other_product', contentJa: '他', contentEn: 'Other' },
      ])
      .execute();
  });

  it('lists the notices in effect now, in snake_case', async () => {
    const response = await ctx.app.inject({ url: '/api/v1/notices' });
    expect(response.statusCode).to.equal(200);
    const { notices } = response.json();
    expect(notices.map((notice: { content_en: string }) => notice.content_en)).to.deep.equal(['Always', 'Running', 'Other']);
    expect(notices[0]).to.have.all.keys('id', 'target', 'content_ja', 'content_en');
    expect(notices[0]).to.include({ target: 'enterprise_portal', content_ja: '常時' });
  });

  it('filters by target', async () => {
    const response = await ctx.app.inject({ url: '/api/v1/notices?target=other_product' });
    expect(response.json().notices.map((notice: { content_en: string }) => notice.content_en)).to.deep.equal(['Other']);
  });
});
