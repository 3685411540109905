// The establishment document's product record, in its two shapes: the detail (whose `category`
// is an id, with `name`'s texts flat beside it) and the search item (whose `category` is an
// object). Both carry every field of the GraphQL EstablishmentProduct; the document lists a
// subset for each.
import { z } from 'zod';
import { fragment, wireRecord, type Derived } from '../../wire-answer.js';

const FIELDS = `productId establishmentId isAdmin name translations status visible stock available
  reserved price establishmentValueInEuros internalPrice priceSource ruleName valueInEuros currency type
  provider providerId helpLink verifiedBy verificationDate certificate featured digital order height weight
  year prizeCategory probability imageUrl featuredImageUrl medias dateOfObject reference gameCatalog
  catalogs { catalogId name category } exclusive { establishmentId requestedDurationDays exclusiveUntil }
  createdAt updatedAt`;

type Category = { categoryId: string } | null;

/** The detail names a product's category by its id; "none" for a product without one. */
const categoryId = (): Derived => ({
  schema: z.string().describe('The category id, or "none".'),
  map: (category) => (category as Category)?.categoryId ?? 'none',
});

/** The search item always has a category object: "none" stands for a product without one. */
const categoryObject = (derived: Derived): Derived => ({
  schema: (derived.schema as z.ZodNullable<z.ZodType>).unwrap(),
  map: (category) => category ?? { categoryId: 'none', name: null, translations: {} },
});

export const PRODUCT = fragment(
  'EstablishmentProduct',
  'EstablishmentProduct',
  `${FIELDS} description extendedDescription additionalDetails category { categoryId }`,
  [],
  {
    description: 'A product as an establishment sees it, with its stock and its prices.',
    values: { category: categoryId },
  },
);

export const PRODUCT_SEARCH_ITEM = fragment(
  'EstablishmentProductSearchItem',
  'EstablishmentProduct',
  `${FIELDS} category { categoryId name translations }`,
  [],
  { description: 'A product in a search answer.', values: { category: categoryObject } },
);

export const product = wireRecord('establishment', PRODUCT);
export const productSearchItem = wireRecord('establishment', PRODUCT_SEARCH_ITEM);
