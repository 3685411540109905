// The tracking page an order's trackUrl opens, in the establishment's look and the player's
// language: the order's prizes, status, tracking numbers and dated history, nothing personal.
import type { Tracking } from '../boot';
import { formatDate, t } from '../i18n';
import { Status } from './ui';

export function Track(props: {
  tracking: Tracking;
  establishment: string;
  logoUrl: string | null;
}) {
  const v = props.tracking;
  const what = (w: string) =>
    w === 'tracking number registered'
      ? t('trackingRegistered')
      : t(`status_${w}` as 'status_pending');
  return (
    <>
      <header class="bar">
        {props.logoUrl && <img src={props.logoUrl} alt="" class="logo" />}
        <span class="brand">{props.establishment}</span>
      </header>
      <main class="page">
        <h1>{t('trackTitle', { ref: v.reference ?? '' })}</h1>
        <div class="card">
          <p class="card-title">{v.products.join(', ')}</p>
          <p>
            {t('status')}: <Status status={v.status} />
          </p>
          {v.tracking.length > 0 && (
            <p>
              {t('trackingNumber')}: <strong>{v.tracking.join(', ')}</strong>
            </p>
          )}
        </div>
        <h2>{t('history')}</h2>
        <ol class="timeline">
          {v.history.map((h, i) => (
            <li key={i}>
              <time dateTime={h.at}>{formatDate(h.at)}</time> {what(h.what)}
            </li>
          ))}
        </ol>
      </main>
    </>
  );
}
