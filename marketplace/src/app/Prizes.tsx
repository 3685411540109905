// "My prizes": the player's orders, newest first: status, codes of digital prizes, tracking, the
// tracking page, and the cancellation the order still allows (asked first).
import { useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import { CancelOrder, Orders } from '../documents';
import { formatDate, formatNumber, t } from '../i18n';
import { useAction, useQuery } from './hooks';
import { Coins, Dialog, Failure, Loading, Status } from './ui';

type Order = ResultOf<typeof Orders>['marketplace']['orders'][number];

export function Prizes(props: { coinName: string; onBalance: (balance: number) => void }) {
  const [version, setVersion] = useState(0);
  const { data, error } = useQuery(Orders, {}, version);
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const cancel = useAction(CancelOrder);

  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  const orders = data.marketplace.orders;

  const confirm = async () => {
    const result = await cancel.act({ orderId: cancelling!.id });
    if (!result) return;
    props.onBalance(result.cancelMyOrder.balance);
    setCancelling(null);
    setNotice(t('cancelled'));
    setVersion(version + 1);
  };

  return (
    <section aria-labelledby="prizes-title">
      <h1 id="prizes-title">{t('myPrizes')}</h1>
      <p role="status">{notice}</p>
      {orders.length === 0 && (
        <p>
          {t('noOrders')} <a href="#/shop">{t('shop')}</a>
        </p>
      )}
      <ul class="list" data-testid="orders">
        {orders.map((o) => (
          <li key={o.id} class="card order" data-order={o.id}>
            <div class="row">
              <h2 class="card-title">{o.items.map((i) => i.name).join(', ')}</h2>
              <Status status={o.status} />
            </div>
            <p class="muted">
              {o.reference} · {t('orderOf', { date: formatDate(o.createdAt) })} ·{' '}
              <Coins n={o.totalCoins} coinName={props.coinName} />
            </p>
            {o.items.flatMap((i) =>
              i.codes.map((code) => (
                <p key={code} class="code">
                  <span class="muted">{t('yourCode')}</span> <code>{code}</code>
                </p>
              )),
            )}
            {o.items
              .filter((i) => i.trackingCode)
              .map((i) => (
                <p key={i.id}>
                  {t('trackingNumber')}: {i.carrier} {i.trackingCode}
                </p>
              ))}
            {o.shippingAddress && <p class="muted">{o.shippingAddress}</p>}
            <div class="actions start">
              <a href={o.trackUrl} target="_blank" rel="noopener noreferrer">
                {t('track')}
              </a>
              {o.cancellable && (
                <button
                  type="button"
                  class="secondary small"
                  onClick={() => {
                    cancel.reset();
                    setCancelling(o);
                  }}
                >
                  {t('cancelOrder')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <Dialog title={t('cancelOrder')} open={!!cancelling} onClose={() => setCancelling(null)}>
        <p>
          {cancelling &&
            t('confirmCancel', { n: `${formatNumber(cancelling.totalCoins)} ${props.coinName}` })}
        </p>
        <Failure error={cancel.error} />
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setCancelling(null)}>
            {t('back')}
          </button>
          <button
            type="button"
            class="primary"
            disabled={cancel.busy}
            onClick={() => void confirm()}
          >
            {t('confirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
