// The audit trail's actions (mutation names) in words, for the list and the action filter:
// adjustCustomerCoins → "Coin adjustment". An action without a name here is spelled out from its
// camelCase ("setOrderItemTracking" → "Set order item tracking"), so a mutation added later reads
// well the day it is audited.
import { words } from './diff.js';

// Marked for the backoffice's catalogs (web/scripts/i18n-extract.mjs) and shown as t(label) by the
// screen; marked here rather than with i18n's msg() because Node tests import this file.
const msg = (message: string) => message;

export const ACTION_WORDS: Record<string, string> = {
  adjustCustomerCoins: msg('Coin adjustment'),
  bulkAdjustCustomerCoins: msg('Bulk coin adjustment'),
  createCustomer: msg('Customer created'),
  updateCustomer: msg('Customer changed'),
  deleteCustomer: msg('Customer deleted'),
  importPlayers: msg('Players imported'),
  setResponsibleGaming: msg('Responsible-gaming limits set'),
  moveOrder: msg('Order moved'),
  cancelOrder: msg('Order cancelled'),
  updateOrderShipping: msg('Order shipping changed'),
  setOrderItemTracking: msg('Tracking set'),
  createApiKey: msg('API key minted'),
  revokeApiKey: msg('API key revoked'),
  createPlatformAdminKey: msg('Platform admin key minted'),
  createBrand: msg('Brand created'),
  createSubBrand: msg('Sub-brand created'),
  updateEstablishment: msg('Establishment profile changed'),
  setMargins: msg('Margins set'),
  topUpPrepaidBalance: msg('Prepaid top-up'),
  setJurisdiction: msg('Jurisdiction set'),
  setCoinExpiry: msg('Coin expiry set'),
  reviewCatalog: msg('Catalog reviewed'),
  createProduct: msg('Product created'),
  updateProduct: msg('Product changed'),
  createListing: msg('Listing created'),
  updateListing: msg('Listing changed'),
  setVariantStock: msg('Stock set'),
  createCampaign: msg('Campaign created'),
  updateCampaign: msg('Campaign changed'),
  updateCampaignStatus: msg('Campaign state changed'),
  cloneCampaign: msg('Campaign copied'),
  deleteCampaign: msg('Campaign deleted'),
  createEventDefinition: msg('Engine definition created'),
  updateEventDefinition: msg('Engine definition changed'),
  deactivateEventDefinition: msg('Engine definition deactivated'),
  createWebhookEndpoint: msg('Webhook endpoint created'),
  updateWebhookEndpoint: msg('Webhook endpoint changed'),
  deleteWebhookEndpoint: msg('Webhook endpoint deleted'),
  rotateWebhookEndpointSecret: msg('Webhook secret rotated'),
  exportCustomersCsv: msg('Customers exported (CSV)'),
  exportOrdersCsv: msg('Orders exported (CSV)'),
  exportMovementsCsv: msg('Coin movements exported (CSV)'),
  exportAuditCsv: msg('Audit trail exported (CSV)'),
  exportRgDecisionsCsv: msg('RG refusals exported (CSV)'),
};

/** An action in words. */
export const actionLabel = (action: string): string => ACTION_WORDS[action] ?? words(action);
