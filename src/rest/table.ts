// The route table: every REST route of both API families. Express routes, /openapi.json and the
// MCP tools are all derived from this list. Order matters where paths overlap: a literal segment
// (`/customers/bulk/coins`) comes before the parameter it would otherwise match (`/customers/{id}`).
import type { Route } from './route.js';
import * as catalog from './routes/partner/catalog.js';
import * as customers from './routes/partner/customers.js';
import * as engine from './routes/partner/engine.js';
import * as orders from './routes/partner/orders.js';
import { getHealth } from './routes/partner/system.js';
import * as testHelpers from './routes/partner/test-helpers.js';
import * as wallet from './routes/partner/wallet.js';
import * as holds from './routes/partner/holds.js';
import * as responsibleGaming from './routes/partner/responsible-gaming.js';
import * as events from './routes/partner/events.js';
import * as webhooks from './routes/partner/webhook-endpoints.js';
import * as reports from './routes/partner/reports.js';
import { adjustPlayerCoins } from './routes/establishment/coins.js';
import * as campaigns from './routes/establishment/campaigns.js';
import * as establishments from './routes/establishment/establishments.js';
import * as games from './routes/establishment/games.js';
import * as iframe from './routes/establishment/iframe.js';
import * as players from './routes/establishment/players.js';
import * as playerRg from './routes/establishment/responsible-gaming.js';
import * as establishmentOrders from './routes/establishment/orders.js';
import * as orderLists from './routes/establishment/order-lists.js';
import * as establishmentCatalogs from './routes/establishment/catalogs.js';
import * as establishmentProducts from './routes/establishment/products.js';
import * as prizes from './routes/establishment/prizes.js';
import { getTournamentStandings } from './routes/establishment/standings.js';

export const ROUTES: Route[] = [
  getHealth,
  customers.listCustomers,
  customers.createCustomer,
  wallet.bulkAdjustCoins,
  wallet.getBulkAdjustment,
  customers.getCustomer,
  customers.listSegments,
  customers.updateCustomer,
  customers.deleteCustomer,
  wallet.adjustCoins,
  wallet.getCoins,
  wallet.listMovements,
  holds.createHold,
  holds.listHolds,
  holds.getHold,
  holds.captureHold,
  holds.releaseHold,
  responsibleGaming.setResponsibleGaming,
  responsibleGaming.listRgDecisions,
  catalog.searchProducts,
  catalog.getProduct,
  catalog.listStores,
  catalog.getStore,
  catalog.listCatalogs,
  catalog.getCatalog,
  catalog.listCategories,
  catalog.getBrandSubBrand,
  orders.reserveOrder,
  orders.listOrders,
  orders.getOrder,
  orders.cancelOrder,
  orders.getOrderShipping,
  orders.updateOrderShipping,
  orders.getOrderReservation,
  orders.createStoreSession,
  testHelpers.advanceTestOrder,
  engine.listEventDefinitions,
  engine.ingestEvent,
  engine.ingestWebhook,
  events.listEvents,
  events.getEvent,
  events.redeliverEvent,
  webhooks.createWebhookEndpoint,
  webhooks.listWebhookEndpoints,
  webhooks.getWebhookEndpoint,
  webhooks.updateWebhookEndpoint,
  webhooks.deleteWebhookEndpoint,
  webhooks.rotateWebhookSecret,
  webhooks.listWebhookDeliveries,
  webhooks.replayWebhookEvents,
  reports.coinReport,
  reports.topCustomers,
  reports.orderReport,
  reports.campaignReport,
  // The establishment API (at the root).
  establishments.getEstablishment,
  establishments.updateEstablishment,
  campaigns.listCampaigns,
  campaigns.createCampaign,
  campaigns.insertCampaignActivity,
  campaigns.getCampaign,
  campaigns.updateCampaign,
  campaigns.deleteCampaign,
  campaigns.updateCampaignStatus,
  campaigns.cloneCampaign,
  players.searchPlayers,
  players.listPlayers,
  players.createPlayer,
  players.getPlayer,
  players.updatePlayer,
  playerRg.setPlayerResponsibleGaming,
  players.deletePlayer,
  orderLists.listPlayerOrders,
  orderLists.getPlayerOrder,
  prizes.getTournamentPosition,
  getTournamentStandings,
  prizes.listPlayerPrizes,
  prizes.claimPrize,
  games.getPlayerGame,
  games.playGame,
  games.rotateGameSeed,
  adjustPlayerCoins,
  iframe.iframeLogin,
  iframe.iframeLogout,
  // Literal paths before /orders/{playerId}/reservation.
  orderLists.listOrders,
  establishmentOrders.requestOrder,
  establishmentOrders.reservePlayerOrder,
  establishmentOrders.capturePlayerOrderDetails,
  establishmentOrders.sendPlayerOrder,
  establishmentOrders.trackPlayerOrder,
  establishmentOrders.acquirePlayerOrder,
  establishmentOrders.cancelPlayerReservation,
  establishmentOrders.reversePlayerAcquisition,
  establishmentProducts.listProducts,
  establishmentProducts.createProduct,
  establishmentProducts.searchProducts,
  establishmentProducts.getProduct,
  establishmentProducts.updateProduct,
  establishmentProducts.deleteProduct,
  establishmentProducts.requestExclusivity,
  establishmentProducts.adminExclusivity,
  establishmentCatalogs.listCatalogs,
  establishmentCatalogs.createCatalog,
  establishmentCatalogs.getCatalog,
  establishmentCatalogs.renameCatalog,
  establishmentCatalogs.deleteCatalog,
  establishmentCatalogs.addCatalogProducts,
  establishmentCatalogs.removeCatalogProduct,
];
