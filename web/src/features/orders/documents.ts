// The orders screens' shared GraphQL: an order as a row of the Orders list and on its own page.
import { graphql } from '../../graphql';

export const OrderFields = graphql(`
  fragment OrderRow on Order @_unmask {
    id
    status
    createdAt
    totalCoins
    recipientName
    shippingAddress
    customerId
    items {
      id
      productName
      sku
      quantity
      kind
      carrier
      trackingCode
      trackingUrl
    }
  }
`);
