// Every GraphQL document the marketplace runs. They are its trusted documents: the server runs
// only these for a player, by id (scripts/trusted-documents.ts writes the ids; docs/
// marketplace.md). Typed by gql.tada against the committed schema.graphql.
import { graphql } from './graphql.js';

const ProductFields = graphql(`
  fragment ProductFields on MarketplaceProduct {
    id
    name
    kind
    images
    fromCoins
    inStock
    featured
    categoryId
  }
`);

const OrderFields = graphql(`
  fragment OrderFields on MarketplaceOrder {
    id
    reference
    status
    createdAt
    totalCoins
    cancellable
    recipientName
    shippingAddress
    trackUrl
    items {
      id
      name
      image
      label
      kind
      quantity
      coins
      carrier
      trackingCode
      trackingUrl
      codes
    }
    history {
      status
      at
    }
  }
`);

/** A recorded draw, with what verifying it takes (docs/fairness.md). */
const DrawFields = graphql(`
  fragment DrawFields on MarketplaceDraw {
    label
    coins
    resultIndex
    draw
    totalWeight
    tableVersion
    clientSeed
    nonce
    seedHash
    serverSeed
    createdAt
  }
`);

const AddressFields = graphql(`
  fragment AddressFields on MarketplaceAddress {
    id
    firstName
    lastName
    addressLine1
    addressLine2
    city
    province
    postalCode
    country
    phone
  }
`);

export const Start = graphql(`
  query MarketplaceStart {
    marketplace {
      expiresAt
      player {
        firstName
        balance
        language
      }
      establishment {
        name
        coinName
        locale
        logoUrl
        thumbnailUrl
      }
      store {
        id
        name
        productCount
        categories {
          id
          name
        }
      }
    }
  }
`);

export const Balance = graphql(`
  query MarketplaceBalance {
    marketplace {
      player {
        balance
      }
    }
  }
`);

export const Products = graphql(
  `
    query MarketplaceProducts(
      $q: String
      $categoryId: ID
      $affordable: Boolean
      $first: Int
      $after: String
    ) {
      marketplace {
        products(
          q: $q
          categoryId: $categoryId
          affordable: $affordable
          first: $first
          after: $after
        ) {
          total
          nextCursor
          items {
            ...ProductFields
          }
        }
      }
    }
  `,
  [ProductFields],
);

export const Product = graphql(
  `
    query MarketplaceProduct($id: ID!) {
      marketplace {
        product(id: $id) {
          ...ProductFields
          description
          variants {
            listingId
            label
            coinPrice
            available
          }
        }
        addresses {
          ...AddressFields
        }
      }
    }
  `,
  [ProductFields, AddressFields],
);

export const Orders = graphql(
  `
    query MarketplaceOrders {
      marketplace {
        orders {
          ...OrderFields
        }
      }
    }
  `,
  [OrderFields],
);

export const Rewards = graphql(
  `
    query MarketplaceRewards {
      marketplace {
        player {
          rewardsPaused
          rewardsPausedUntil
        }
        dailyRewards {
          campaignId
          title
          description
          progressive
          streak
          today
          nextCoins
          endsAt
        }
        awards {
          id
          campaignTitle
          coins
          productName
          productImage
          physical
          gameName
          plays
          label
          expiresAt
        }
        tournaments {
          campaignId
          title
          endsAt
          rank
          points
          participants
          prizeCoins
          top {
            rank
            name
            points
            you
          }
        }
        games {
          campaignId
          campaignTitle
          gameName
          credits
          prizes {
            label
            coins
            chance
          }
          serverSeedHash
          draws {
            ...DrawFields
          }
        }
        addresses {
          ...AddressFields
        }
      }
    }
  `,
  [AddressFields, DrawFields],
);

export const Redeem = graphql(
  `
    mutation MarketplaceRedeem(
      $listingId: ID!
      $addressId: ID
      $address: MarketplaceAddressInput
      $saveAddress: Boolean
    ) {
      redeemPrize(
        listingId: $listingId
        addressId: $addressId
        address: $address
        saveAddress: $saveAddress
      ) {
        balance
        order {
          ...OrderFields
        }
      }
    }
  `,
  [OrderFields],
);

export const CancelOrder = graphql(
  `
    mutation MarketplaceCancelOrder($orderId: ID!) {
      cancelMyOrder(orderId: $orderId) {
        balance
        order {
          ...OrderFields
        }
      }
    }
  `,
  [OrderFields],
);

export const Claim = graphql(`
  mutation MarketplaceClaim(
    $awardId: ID!
    $addressId: ID
    $address: MarketplaceAddressInput
    $saveAddress: Boolean
  ) {
    claimMyAward(
      awardId: $awardId
      addressId: $addressId
      address: $address
      saveAddress: $saveAddress
    ) {
      balance
      coins
      orderId
      plays
    }
  }
`);

export const Play = graphql(
  `
    mutation MarketplacePlay($campaignId: ID!, $gameName: String!, $clientSeed: String) {
      playMyGame(campaignId: $campaignId, gameName: $gameName, clientSeed: $clientSeed) {
        balance
        credits
        draw {
          ...DrawFields
        }
      }
    }
  `,
  [DrawFields],
);

export const DeleteAddress = graphql(`
  mutation MarketplaceDeleteAddress($id: ID!) {
    deleteMyAddress(id: $id) {
      id
    }
  }
`);
