// Tenant tables are keyed by (sub_brand_id, id) (docs/scaling.md): a row is found by both, which
// is also what every tenant-scoped query already knows.

/** The Prisma unique selector of a row keyed (sub_brand_id, id). */
export const tenantKey = (subBrandId: string, id: string) => ({
  subBrandId_id: { subBrandId, id },
});
