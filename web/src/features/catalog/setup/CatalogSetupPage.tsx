// Catalogs, categories and stores (platform admins): one request reads the three lists; each
// card creates its kind, with the server's refusals shown at their fields.
import { Button, Group } from '@mantine/core';
import { useQuery } from 'urql';
import { useLocation, useSearch } from 'wouter';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { CatalogsCard } from './CatalogsCard';
import { CategoriesCard } from './CategoriesCard';
import { SetupQuery } from './documents';
import { StoresCard } from './StoresCard';
import { t } from '../../../i18n';

export default function CatalogSetupPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const catalogsBefore = params.get('catalogsBefore');
  const storesBefore = params.get('storesBefore');
  const [result, refetch] = useQuery({
    query: SetupQuery,
    variables: { catalogsBefore, storesBefore },
  });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const data = result.data;
  // `last` answers oldest → newest; the screen shows the newest first.
  const catalogs = data?.catalogs.edges.map((e) => e.node).reverse();
  const go = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change))
      if (v) next.set(k, v);
      else next.delete(k);
    navigate(`/catalog/catalogs${next.size ? `?${next.toString()}` : ''}`);
  };
  const older = (
    key: 'catalogsBefore' | 'storesBefore',
    info?: { hasPreviousPage: boolean; startCursor?: string | null },
  ) => (
    <Group justify="flex-end">
      {params.get(key) && (
        <Button variant="default" onClick={() => go({ [key]: null })}>
          {t('Newest')}
        </Button>
      )}
      <Button
        variant="default"
        disabled={!info?.hasPreviousPage}
        onClick={() => go({ [key]: info?.startCursor ?? null })}
      >
        {t('Older')}
      </Button>
    </Group>
  );
  return (
    <Page title={t('Catalogs and stores')}>
      <ErrorAlert error={result.error} />
      <CatalogsCard
        catalogs={catalogs}
        total={data?.catalogs.total}
        onChange={reload}
        pager={older('catalogsBefore', data?.catalogs.pageInfo)}
      />
      <StoresCard
        stores={data?.stores.edges.map((e) => e.node).reverse()}
        catalogs={catalogs ?? []}
        onChange={reload}
        pager={older('storesBefore', data?.stores.pageInfo)}
      />
      <CategoriesCard categories={data?.categories.edges.map((e) => e.node)} onChange={reload} />
    </Page>
  );
}
