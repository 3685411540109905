// Catalog authoring (platform admins): categories, platform catalogs and their products, and
// stores. The page reads all three in one request (catalogs and stores newest first, 25 a page,
// older pages by cursor in the URL; categories are few, in display order); each form is one
// mutation.
import { graphql, type ResultOf } from '../../../graphql';

export const SetupQuery = graphql(`
  query CatalogSetup($catalogsBefore: String, $storesBefore: String) {
    categories(first: 100) {
      edges {
        node {
          id
          slug
          position
          names
        }
      }
    }
    catalogs(last: 25, before: $catalogsBefore) {
      total {
        value
        exact
      }
      pageInfo {
        hasPreviousPage
        startCursor
      }
      edges {
        node {
          id
          subBrandId
          name
          description
          category
          owner
          status
          productCount
        }
      }
    }
    stores(last: 25, before: $storesBefore) {
      pageInfo {
        hasPreviousPage
        startCursor
      }
      edges {
        node {
          id
          subBrandId
          name
          slug
          active
          catalogs {
            id
            name
          }
        }
      }
    }
  }
`);
export type Setup = ResultOf<typeof SetupQuery>;

export const ProductPickQuery = graphql(`
  query ProductPick($q: String) {
    products(filter: { q: $q }, first: 20) {
      edges {
        node {
          id
          name
          status
        }
      }
    }
  }
`);

export const CreateCategory = graphql(`
  mutation CreateCategoryScreen($slug: String!, $names: JSON!, $position: Int) {
    createCategory(slug: $slug, names: $names, position: $position) {
      id
    }
  }
`);

export const CreateCatalog = graphql(`
  mutation CreateCatalogScreen($name: String!, $description: String, $productIds: [ID!]) {
    createCatalog(name: $name, description: $description, productIds: $productIds) {
      id
    }
  }
`);

export const SetCatalogProducts = graphql(`
  mutation SetCatalogProductsScreen($catalogId: ID!, $productIds: [ID!]!) {
    setCatalogProducts(catalogId: $catalogId, productIds: $productIds)
  }
`);

export const CreateStore = graphql(`
  mutation CreateStoreScreen(
    $subBrandId: ID!
    $name: String!
    $slug: String!
    $description: String
    $catalogIds: [ID!]
  ) {
    createStore(
      subBrandId: $subBrandId
      name: $name
      slug: $slug
      description: $description
      catalogIds: $catalogIds
    ) {
      id
    }
  }
`);
