// GET/PUT /establishments/{id}: the profile a key reads and updates, and the commercial fields
// only platform admins change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const STYLE = {
  backgroundPrimary: '#101010',
  foregroundPrimary: '#fafafa',
  backgroundSecondary: '#202020',
  foregroundSecondary: '#eeeeee',
  backgroundSidebarPrimary: '#303030',
  backgroundSidebarSecondary: '#404040',
  marketplaceBackground: '#000000',
  marketplaceForegroundPrimary: '#ffffff',
  marketplaceForegroundSecondary: '#cccccc',
  marketplaceBackgroundCard: '#111111',
  marketplaceForegroundCardPrimary: '#f0f0f0',
  marketplaceForegroundCardSecondary: '#e0e0e0',
  marketplaceForegroundCardTertiary: '#d0d0d0',
  font: 'Inter',
};

const PROFILE = {
  name: 'Lucky Madrid',
  email: 'ops@lucky.example',
  imageUrl: 'https://cdn.lucky.example/logo.png',
  thumbnailUrl: 'https://cdn.lucky.example/thumb.png',
  description: 'The Madrid room',
  location: 'Madrid, ES',
  defaultCurrency: 'EUR',
  status: 'active',
  locale: 'es-ES',
};

describe('GET /establishments/{establishmentId}', () => {
  it('answers the profile of the key’s own establishment', async () => {
    const res = await p.get(`/establishments/${p.subBrandId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      establishmentId: p.subBrandId,
      defaultCurrency: 'EUR',
      status: 'active',
      locale: 'en',
      monthlyAllocatedCoins: 0,
      totalAvailableCoins: 0,
      isIntegration: false,
      paymentPlanId: null,
      coinRatio: 100,
      coinName: 'Coins',
      parentCasinoId: p.brandId,
    });
    expect(Object.keys(res.body.style)).toHaveLength(14);
  });

  it('another tenant’s establishment is 404 ESTABLISHMENT_NOT_FOUND; a malformed id 400', async () => {
    const other = await partner(h);
    const res = await p.get(`/establishments/${other.subBrandId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'Not Found',
      message: 'Establishment not found.',
      code: 'ESTABLISHMENT_NOT_FOUND',
      requestId: res.headers.get('x-request-id'),
    });
    const bad = await p.get('/establishments/42');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'establishmentId', message: expect.any(String) }],
    });
  });

  it('a key without establishment:read is 403 FORBIDDEN; a platform admin reads any', async () => {
    const narrow = await p.otherKey({ scopes: ['customers:read'] });
    const res = await h.call('GET', `/establishments/${p.subBrandId}`, { key: narrow });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    const byAdmin = await h.call('GET', `/establishments/${p.subBrandId}`, { key: admin });
    expect(byAdmin.body.establishmentId).toBe(p.subBrandId);
  });
});

describe('PUT /establishments/{establishmentId}', () => {
  it('replaces the profile and answers the documented envelope', async () => {
    const res = await p.put(`/establishments/${p.subBrandId}`, {
      ...PROFILE,
      ...STYLE,
      coinName: 'Lucky Coins',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      $metadata: {
        httpStatusCode: 200,
        requestId: res.headers.get('x-request-id'),
        attempts: 1,
        totalRetryDelay: 0,
      },
      Attributes: {
        imageUrl: PROFILE.imageUrl,
        location: PROFILE.location,
        monthlyAllocatedCoins: 0,
        defaultCurrency: 'EUR',
        status: 'active',
        thumbnailUrl: PROFILE.thumbnailUrl,
        description: PROFILE.description,
        email: PROFILE.email,
        paymentPlanId: null,
        name: PROFILE.name,
      },
    });
    const read = (await p.get(`/establishments/${p.subBrandId}`)).body;
    expect(read).toMatchObject({ ...PROFILE, style: STYLE, coinName: 'Lucky Coins' });
    // The partner API sees the same sub-brand.
    const profile = await p.get(`/api/v1/brands/${p.brandId}/sub-brands/${p.subBrandId}`);
    expect(profile.body.data.name).toBe('Lucky Madrid');
  });

  it('re-sending what GET answered works (unknown fields ignored, style merged)', async () => {
    const current = (await p.get(`/establishments/${p.subBrandId}`)).body;
    const res = await p.put(`/establishments/${p.subBrandId}`, {
      ...current,
      font: 'Roboto',
      somethingElse: true,
    });
    expect(res.status, res.text).toBe(200);
    const read = (await p.get(`/establishments/${p.subBrandId}`)).body;
    expect(read.style).toEqual({ ...STYLE, font: 'Roboto' });
  });

  it('names every missing or malformed field', async () => {
    const res = await p.put(`/establishments/${p.subBrandId}`, {
      ...PROFILE,
      name: undefined,
      email: 'nope',
      imageUrl: 'ftp://x',
      locale: 'Spanish!',
      status: 'closed',
      defaultCurrency: 'eur',
      font: 'x'.repeat(65),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    // Formats are checked with the rest (and stated in the OpenAPI document), in one answer.
    const fields = res.body.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual([
      'defaultCurrency',
      'email',
      'font',
      'imageUrl',
      'locale',
      'name',
      'status',
    ]);
    const domain = await p.put(`/establishments/${p.subBrandId}`, {
      ...PROFILE,
      email: 'nope',
      imageUrl: 'ftp://x',
      locale: 'Spanish!',
    });
    expect(domain.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'imageUrl',
      'locale',
    ]);
  });

  it('commercial fields: re-sent unchanged by the owner, changed only by a platform admin', async () => {
    const same = await p.put(`/establishments/${p.subBrandId}`, { ...PROFILE, coinRatio: 100 });
    expect(same.status, same.text).toBe(200);
    for (const change of [
      { coinRatio: 250 },
      { defaultCurrency: 'USD' },
      { parentCasinoId: p.subBrandId },
    ]) {
      const res = await p.put(`/establishments/${p.subBrandId}`, { ...PROFILE, ...change });
      expect(res.status, JSON.stringify(change)).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    const byAdmin = await h.call('PUT', `/establishments/${p.subBrandId}`, {
      key: admin,
      body: { ...PROFILE, coinRatio: 250 },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    const profile = await p.get(`/api/v1/brands/${p.brandId}/sub-brands/${p.subBrandId}`);
    expect(profile.body.data.coins_per_unit).toBe(250);
    const unknownBrand = await h.call('PUT', `/establishments/${p.subBrandId}`, {
      key: admin,
      body: { ...PROFILE, parentCasinoId: p.subBrandId },
    });
    expect(unknownBrand.status).toBe(404);
    expect(unknownBrand.body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('another tenant’s establishment cannot be updated', async () => {
    const other = await partner(h);
    const res = await p.put(`/establishments/${other.subBrandId}`, PROFILE);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
    expect((await other.get(`/establishments/${other.subBrandId}`)).body.name).not.toBe(
      PROFILE.name,
    );
  });
});

describe('totalAvailableCoins', () => {
  it('is the monthly allocation less this month’s credits (not debits) in the key’s environment', async () => {
    const t = await partner(h);
    await h.db.prisma.subBrand.update({
      where: { id: t.subBrandId },
      data: { monthlyAllocatedCoins: 10_000n },
    });
    const c = await t.customer();
    await t.credit(c.id, 700);
    await t.credit(c.id, -200);
    await t.put('/coins', { playerId: c.id, amount: 300 });
    const read = (await t.get(`/establishments/${t.subBrandId}`)).body;
    expect(read).toMatchObject({ monthlyAllocatedCoins: 10_000, totalAvailableCoins: 9_000 });
    const live = await t.otherKey({ env: 'live' });
    const liveRead = await h.call('GET', `/establishments/${t.subBrandId}`, { key: live });
    expect(liveRead.body.totalAvailableCoins).toBe(10_000);
  });
});
