// Catalogs: the platform's approved catalogs and the establishment's own proposals
// (docs/establishment-api.md, "Catalogs"). What an establishment creates is a proposal, pending
// until the platform reviews it, as in the backoffice.
import {
  catalogProductsBody,
  createEstablishmentCatalogBody,
  renameCatalogBody,
} from '../../../domain/catalog/establishment-catalogs.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { PRODUCT } from './product-wire.js';
import { uuidParams } from './wire.js';

/** A catalog an establishment sees, without its products (the lists' item). */
const CATALOG = fragment(
  'EstablishmentCatalog',
  'EstablishmentCatalog',
  'establishmentId catalogId category name productCount status',
);

/** A single catalog: the item with the products in it that the establishment sees. */
const CATALOG_DETAIL = fragment(
  'EstablishmentCatalogDetail',
  'EstablishmentCatalog',
  `${CATALOG} products { ${PRODUCT} }`,
  [CATALOG, PRODUCT],
  {
    description: 'A catalog with the products in it that the establishment sees, in their order.',
  },
);

const listParams = uuidParams('establishmentId');
const params = uuidParams('establishmentId', 'catalogId');

export const listCatalogs = defineRoute({
  name: 'list_establishment_catalogs',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}/catalogs',
  scope: 'catalogs:read',
  tag: 'Catalogs',
  summary: 'List catalogs',
  description:
    'The platform\u2019s catalogs and your own proposals (pending or approved), oldest first. establishmentId must ' +
    'be the key\u2019s own (else 404 ESTABLISHMENT_NOT_FOUND).',
  hints: { readOnly: true, idempotent: true },
  params: listParams,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query ListEstablishmentCatalogs($establishmentId: ID!) {
    establishmentCatalogs(establishmentId: $establishmentId) { ${CATALOG} }
  }
  ${CATALOG.definition}`,
  variables: ({ params }) => ({ establishmentId: params.establishmentId }),
});

export const createCatalog = defineRoute({
  name: 'create_establishment_catalog',
  family: 'establishment',
  method: 'POST',
  path: '/establishments/{establishmentId}/catalogs',
  scope: 'catalogs:write',
  tag: 'Catalogs',
  summary: 'Propose a catalog',
  description:
    'A thematic collection of products you see (`productIds`, optional). It is a proposal: `status` pending until ' +
    'the platform approves it in the backoffice; until then you see it here, your players do not.',
  hints: {},
  params: listParams,
  body: createEstablishmentCatalogBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation CreateEstablishmentCatalog($establishmentId: ID!, $input: CreateEstablishmentCatalogInput!) {
    createEstablishmentCatalog(establishmentId: $establishmentId, input: $input) { ${CATALOG_DETAIL} } }
  ${CATALOG_DETAIL.definition}`,
  variables: ({ params, body }) => ({ establishmentId: params.establishmentId, input: body }),
});

export const getCatalog = defineRoute({
  name: 'get_establishment_catalog',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}/catalogs/{catalogId}',
  scope: 'catalogs:read',
  tag: 'Catalogs',
  summary: 'Get a catalog with its products',
  description: 'A catalog you see, with the products in it that you see, in their order.',
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query GetEstablishmentCatalog($establishmentId: ID!, $id: ID!) {
    establishmentCatalog(establishmentId: $establishmentId, id: $id) { ${CATALOG_DETAIL} } }
  ${CATALOG_DETAIL.definition}`,
  variables: ({ params }) => ({ establishmentId: params.establishmentId, id: params.catalogId }),
});

export const renameCatalog = defineRoute({
  name: 'rename_establishment_catalog',
  family: 'establishment',
  method: 'PUT',
  path: '/establishments/{establishmentId}/catalogs/{catalogId}',
  scope: 'catalogs:write',
  tag: 'Catalogs',
  summary: 'Rename a catalog',
  description: 'Renames one of your proposals; a platform catalog is 403.',
  hints: { idempotent: true },
  params,
  body: renameCatalogBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation RenameEstablishmentCatalog($establishmentId: ID!, $id: ID!, $input: RenameEstablishmentCatalogInput!) {
    renameEstablishmentCatalog(establishmentId: $establishmentId, id: $id, input: $input) { ${CATALOG_DETAIL} } }
  ${CATALOG_DETAIL.definition}`,
  variables: ({ params, body }) => ({
    establishmentId: params.establishmentId,
    id: params.catalogId,
    input: body,
  }),
});

export const deleteCatalog = defineRoute({
  name: 'delete_establishment_catalog',
  family: 'establishment',
  method: 'DELETE',
  path: '/establishments/{establishmentId}/catalogs/{catalogId}',
  scope: 'catalogs:write',
  tag: 'Catalogs',
  summary: 'Delete a catalog',
  description:
    'Deletes one of your proposals and its product links; the products stay. A platform catalog is 403.',
  hints: { destructive: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation DeleteEstablishmentCatalog($establishmentId: ID!, $id: ID!) {
    deleteEstablishmentCatalog(establishmentId: $establishmentId, id: $id) { catalogId deleted } }`,
  variables: ({ params }) => ({ establishmentId: params.establishmentId, id: params.catalogId }),
});

export const addCatalogProducts = defineRoute({
  name: 'add_establishment_catalog_products',
  family: 'establishment',
  method: 'POST',
  path: '/establishments/{establishmentId}/catalogs/{catalogId}/products',
  scope: 'catalogs:write',
  tag: 'Catalogs',
  summary: 'Add products to a catalog',
  description:
    'Appends products you see to one of your proposals (those already in it stay where they are). An id you do ' +
    'not see is 404 PRODUCT_NOT_FOUND and adds nothing.',
  hints: { idempotent: true },
  params,
  body: catalogProductsBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation AddEstablishmentCatalogProducts($establishmentId: ID!, $id: ID!, $input: EstablishmentCatalogProductsInput!) {
    addEstablishmentCatalogProducts(establishmentId: $establishmentId, id: $id, input: $input) { ${CATALOG_DETAIL} } }
  ${CATALOG_DETAIL.definition}`,
  variables: ({ params, body }) => ({
    establishmentId: params.establishmentId,
    id: params.catalogId,
    input: body,
  }),
});

export const removeCatalogProduct = defineRoute({
  name: 'remove_establishment_catalog_product',
  family: 'establishment',
  method: 'DELETE',
  path: '/establishments/{establishmentId}/catalogs/{catalogId}/products/{productId}',
  scope: 'catalogs:write',
  tag: 'Catalogs',
  summary: 'Remove a product from a catalog',
  description: 'Removes only the link; the product stays. A product not in the catalog is 404.',
  hints: { destructive: true, idempotent: true },
  params: uuidParams('establishmentId', 'catalogId', 'productId'),
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation RemoveEstablishmentCatalogProduct($establishmentId: ID!, $id: ID!, $productId: ID!) {
    removeEstablishmentCatalogProduct(establishmentId: $establishmentId, id: $id, productId: $productId) { ${CATALOG_DETAIL} } }
  ${CATALOG_DETAIL.definition}`,
  variables: ({ params }) => ({
    establishmentId: params.establishmentId,
    id: params.catalogId,
    productId: params.productId,
  }),
});
