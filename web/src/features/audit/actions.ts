// The audit trail's actions (mutation names) in words, for the list and the action filter:
// adjustCustomerCoins → "Coin adjustment". An action without a name here is spelled out from its
// camelCase ("setOrderItemTracking" → "Set order item tracking"), so a mutation added later reads
// well the day it is audited.
import { words } from './diff.js';

export const ACTION_WORDS: Record<string, string> = {
  adjustCustomerCoins: 'Coin adjustment',
  bulkAdjustCustomerCoins: 'Bulk coin adjustment',
  createCustomer: 'Customer created',
  updateCustomer: 'Customer changed',
  deleteCustomer: 'Customer deleted',
  importPlayers: 'Players imported',
  setResponsibleGaming: 'Responsible-gaming limits set',
  moveOrder: 'Order moved',
  cancelOrder: 'Order cancelled',
  updateOrderShipping: 'Order shipping changed',
  setOrderItemTracking: 'Tracking set',
  createApiKey: 'API key minted',
  revokeApiKey: 'API key revoked',
  createPlatformAdminKey: 'Platform admin key minted',
  createBrand: 'Brand created',
  createSubBrand: 'Sub-brand created',
  updateEstablishment: 'Establishment profile changed',
  setMargins: 'Margins set',
  topUpPrepaidBalance: 'Prepaid top-up',
  setJurisdiction: 'Jurisdiction set',
  setCoinExpiry: 'Coin expiry set',
  reviewCatalog: 'Catalog reviewed',
  createProduct: 'Product created',
  updateProduct: 'Product changed',
  createListing: 'Listing created',
  updateListing: 'Listing changed',
  setVariantStock: 'Stock set',
  createCampaign: 'Campaign created',
  updateCampaign: 'Campaign changed',
  updateCampaignStatus: 'Campaign state changed',
  cloneCampaign: 'Campaign copied',
  deleteCampaign: 'Campaign deleted',
  createEventDefinition: 'Engine definition created',
  updateEventDefinition: 'Engine definition changed',
  deactivateEventDefinition: 'Engine definition deactivated',
  createWebhookEndpoint: 'Webhook endpoint created',
  updateWebhookEndpoint: 'Webhook endpoint changed',
  deleteWebhookEndpoint: 'Webhook endpoint deleted',
  rotateWebhookEndpointSecret: 'Webhook secret rotated',
  exportCustomersCsv: 'Customers exported (CSV)',
  exportOrdersCsv: 'Orders exported (CSV)',
  exportMovementsCsv: 'Coin movements exported (CSV)',
  exportAuditCsv: 'Audit trail exported (CSV)',
  exportRgDecisionsCsv: 'RG refusals exported (CSV)',
};

/** An action in words. */
export const actionLabel = (action: string): string => ACTION_WORDS[action] ?? words(action);
