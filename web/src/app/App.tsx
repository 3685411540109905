// Routes: sign-in outside, every other screen inside the shell and behind sign-in. Screens load
// on demand (the dashboard's charts are the heaviest), so the first load stays small.
import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useMemo } from 'react';
import { Provider } from 'urql';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { clientFor } from '../api/client';
import { useSession } from '../api/session';
import { t, useLanguage } from '../i18n';
import { SignInPage } from '../features/sign-in/SignInPage';
import { HeldForSetup } from '../features/account/HeldForSetup';
import { SCREEN_CHUNKS } from './prefetch';
import { Shell } from './Shell';
import { CustomersPage } from '../features/customers/CustomersPage';

const DashboardPage = lazy(SCREEN_CHUNKS['/']);
const CustomerPage = lazy(() => import('../features/customers/CustomerPage'));
const BulkAdjustPage = lazy(() => import('../features/customers/BulkAdjustPage'));
const ImportPage = lazy(() => import('../features/customers/ImportPage'));
const BrandsPage = lazy(() => import('../features/brands/BrandsPage'));
const SubBrandPage = lazy(() => import('../features/brands/SubBrandPage'));
const ProductsPage = lazy(() => import('../features/catalog/ProductsPage'));
const ProductPage = lazy(() => import('../features/catalog/ProductPage'));
const ExecutionsPage = lazy(() => import('../features/engine/ExecutionsPage'));
const OrdersPage = lazy(() => import('../features/orders/OrdersPage'));
const OrderPage = lazy(() => import('../features/orders/OrderPage'));
const KeysPage = lazy(() => import('../features/keys/KeysPage'));
const ProposalsPage = lazy(() => import('../features/catalog/ProposalsPage'));
const EnginePage = lazy(() => import('../features/engine/EnginePage'));
const AuditPage = lazy(() => import('../features/audit/AuditPage'));
const CompliancePage = lazy(() => import('../features/compliance/CompliancePage'));
const CatalogSetupPage = lazy(() => import('../features/catalog/setup/CatalogSetupPage'));
const CampaignsPage = lazy(() => import('../features/campaigns/CampaignsPage'));
const NewCampaignPage = lazy(() => import('../features/campaigns/NewCampaignPage'));
const CampaignPage = lazy(() => import('../features/campaigns/CampaignPage'));
const LeaderboardPage = lazy(() => import('../features/campaigns/LeaderboardPage'));
const NotificationsPage = lazy(() => import('../features/notifications/NotificationsPage'));
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage'));
const WebhookEndpointPage = lazy(() => import('../features/webhooks/WebhookEndpointPage'));
const EventsPage = lazy(() => import('../features/webhooks/EventsPage'));
const StaffPage = lazy(() => import('../features/staff/StaffPage'));
const AccountPage = lazy(() => import('../features/account/AccountPage'));
const InvitationPage = lazy(() => import('../features/sign-in/InvitationPage'));

export function App() {
  return (
    <Router base="/admin">
      <Switch>
        <Route path="/sign-in" component={SignInPage} />
        <Route path="/invitation">
          <Suspense fallback={null}>
            <InvitationPage />
          </Suspense>
        </Route>
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Router>
  );
}

function SignedIn() {
  const { session, setSession, subBrandId, environment } = useSession();
  const [location] = useLocation();
  // A language switch renders the shell and its screen afresh (every t() again); the client,
  // and so what it has cached, stays.
  const language = useLanguage();
  // A new client per sub-brand and environment: nothing cached for one tenant shows for another.
  const client = useMemo(
    () =>
      session
        ? clientFor({
            csrf: session.csrfToken,
            tenant: { subBrandId, environment },
            onSignedOut: () => setSession(null),
          })
        : null,
    [session, subBrandId, environment, setSession],
  );
  if (!session || !client)
    return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} replace />;
  // The brand requires a second factor this account lacks: its setup is all the server allows.
  if (session.twoFactor === 'setup_required') return <HeldForSetup />;
  return (
    <Provider value={client}>
      <Shell key={language}>
        <Suspense
          fallback={
            <Center h={200}>
              <Loader aria-label={t('Loading')} />
            </Center>
          }
        >
          <Switch>
            <Route path="/" component={DashboardPage} />
            <Route path="/customers" component={CustomersPage} />
            <Route path="/customers/bulk" component={BulkAdjustPage} />
            <Route path="/customers/import" component={ImportPage} />
            <Route path="/customers/:id">{(p) => <CustomerPage id={p.id} />}</Route>
            <Route path="/orders" component={OrdersPage} />
            <Route path="/orders/:id">{(p) => <OrderPage id={p.id} />}</Route>
            <Route path="/keys" component={KeysPage} />
            <Route path="/catalog/proposals" component={ProposalsPage} />
            <Route path="/catalog/products" component={ProductsPage} />
            <Route path="/catalog/catalogs" component={CatalogSetupPage} />
            <Route path="/catalog/products/:id">{(p) => <ProductPage id={p.id} />}</Route>
            <Route path="/brands" component={BrandsPage} />
            <Route path="/brands/sub-brands/:id">{(p) => <SubBrandPage id={p.id} />}</Route>
            <Route path="/engine/executions" component={ExecutionsPage} />
            <Route path="/engine" component={EnginePage} />
            <Route path="/audit" component={AuditPage} />
            <Route path="/compliance" component={CompliancePage} />
            <Route path="/campaigns" component={CampaignsPage} />
            <Route path="/campaigns/new" component={NewCampaignPage} />
            <Route path="/campaigns/:id/leaderboard">{(p) => <LeaderboardPage id={p.id} />}</Route>
            <Route path="/campaigns/:id">{(p) => <CampaignPage id={p.id} />}</Route>
            <Route path="/notifications" component={NotificationsPage} />
            <Route path="/webhooks" component={WebhooksPage} />
            <Route path="/webhooks/:id">{(p) => <WebhookEndpointPage id={p.id} />}</Route>
            <Route path="/events" component={EventsPage} />
            <Route path="/staff" component={StaffPage} />
            <Route path="/account" component={AccountPage} />
            <Route>
              <p>{t('No such screen.')}</p>
            </Route>
          </Switch>
        </Suspense>
      </Shell>
    </Provider>
  );
}
