// The GraphQL inputs derived from the domain's zod bodies (src/schema/zod-input.ts): each states
// the body's fields, which are required, and their types, so a field added to the domain's schema
// is a GraphQL field without a second declaration.
import { isInputObjectType, isNonNullType, type GraphQLInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createEstablishmentProductBody } from '../../src/domain/catalog/establishment-product-inputs.js';
import { productSearchBody } from '../../src/domain/catalog/search-establishment-products.js';
import { claimInput } from '../../src/engine/campaigns/claim-award.js';
import { activityObject } from '../../src/engine/campaigns/insert-activity.js';
import { getSchema } from '../../src/schema/index.js';

const input = (name: string) => {
  const type = getSchema().getType(name);
  if (!isInputObjectType(type)) throw new Error(`${name} is not an input type`);
  return type;
};
const typeOf = (type: GraphQLInputObjectType, field: string) =>
  String(type.getFields()[field]!.type);

describe('inputs derived from zod', () => {
  it.each([
    ['CreateEstablishmentProductInput', createEstablishmentProductBody],
    ['EstablishmentProductSearchInput', productSearchBody],
    ['CampaignAwardClaimInput', claimInput],
    ['CampaignActivityInput', activityObject],
  ] as const)('%s has the body’s fields; the required ones are non-null', (name, body) => {
    const type = input(name);
    expect(Object.keys(type.getFields()).sort()).toEqual(Object.keys(body.shape).sort());
    for (const [key, field] of Object.entries(body.shape)) {
      const optional = (field as { safeParse(v: unknown): { success: boolean } }).safeParse(
        undefined,
      ).success;
      expect(isNonNullType(type.getFields()[key]!.type), `${name}.${key}`).toBe(!optional);
    }
  });

  it('states scalar types, nested inputs and the shared enums', () => {
    const product = input('CreateEstablishmentProductInput');
    expect(typeOf(product, 'establishmentId')).toBe('ID!');
    expect(typeOf(product, 'stock')).toBe('Int');
    expect(typeOf(product, 'valueInEuros')).toBe('Float');
    expect(typeOf(product, 'status')).toBe('EstablishmentProductStatus'); // the output's enum
    expect(typeOf(product, 'prizeCategory')).toBe('PrizeCategory');
    expect(typeOf(product, 'translations')).toBe('JSON'); // texts keyed by language: a map
    expect(typeOf(product, 'category')).toBe('JSON'); // an object or an id
    const filters = input('EstablishmentProductSearchInputFilters');
    expect(typeOf(filters, 'locale')).toBe('Language');
    expect(typeOf(filters, 'categories')).toBe('[String!]'); // a uuid or "none"
    expect(typeOf(input('EstablishmentProductSearchInputSort'), 'order')).toBe('SortOrder');
    const prize = input('CampaignGameTableInputPrizesItem');
    expect(typeOf(prize, 'coins')).toBe('SafeInt!'); // beyond 32 bits
    expect(typeOf(prize, 'weight')).toBe('Int!');
    expect(typeOf(input('CampaignActivityInput'), 'mode')).toBe('CampaignActivityMode!');
  });
});
